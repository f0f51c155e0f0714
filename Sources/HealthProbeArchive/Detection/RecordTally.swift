import Foundation

/// Gathers, for one sample type, what evidence says about a set of records: how many, from
/// which sources, the date range and the local days they fall on (of the zone every face shows
/// days in). Memory grows with sources and days, never with records — except the ids, kept only
/// when asked.
struct RecordTally {
    private(set) var count = 0
    private(set) var sources: [String: Int] = [:]
    private(set) var firstStart: Double?
    private(set) var lastEnd: Double?
    private(set) var days: Set<Int64> = []
    private(set) var ids: [Int64] = []
    /// The kinds of record tallied, when the caller says them.
    private(set) var kinds: Set<HealthRecord.Kind> = []
    let keepsIDs: Bool
    private var local: LocalDays

    init(zone: TimeZone, keepsIDs: Bool = true) {
        self.keepsIDs = keepsIDs
        local = LocalDays(zone: zone)
    }

    mutating func add(id: Int64, source: String?, start: Double?, end: Double?, kind: String? = nil) {
        count += 1
        if let kind = kind.flatMap(HealthRecord.Kind.init(rawValue:)) { kinds.insert(kind) }
        sources[source ?? "(no source)", default: 0] += 1
        if let start {
            firstStart = min(firstStart ?? start, start)
            days.insert(local.day(of: start))
        }
        if let last = end ?? start { lastEnd = max(lastEnd ?? last, last) }
        if keepsIDs { ids.append(id) }
    }

    /// `dateRange`, `firstDate`, `lastDate`, `daysAffected`, `days`, `sources`.
    var evidence: [String: String] {
        var evidence: [String: String] = ["sources": EvidenceText.counts(sources), "daysAffected": String(days.count)]
        if let firstStart, let lastEnd {
            evidence["firstDate"] = UTCText.iso8601(seconds: firstStart)
            evidence["lastDate"] = UTCText.iso8601(seconds: lastEnd)
            var local = local
            evidence["dateRange"] = EvidenceText.dayRange(local.day(of: firstStart), local.day(of: lastEnd))
        }
        evidence["days"] = EvidenceText.days(days)
        return evidence
    }
}

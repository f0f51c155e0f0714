import Foundation

/// `self_overlap`: one source's records of one type covering the same time more than once — an
/// app writing growing sleep sessions for one night (23:00–00:05, 23:00–01:05, … 23:00–06:05) so
/// that totals claim 28 hours, or step samples that overlap. Sleep is compared within its kind
/// of value (asleep stages, in bed, awake: a night in bed holds its stages); summed quantities
/// as they come. Identical copies are duplicates, and two sources writing one sample are a
/// source overlap: neither counts here. Reported when a case holds something C brought.
struct SelfOverlapDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    private struct Member {
        var id: Int64
        var start: Double
        var end: Double
        var value: String?
    }

    /// Records of one type, source and kind of value that overlap one another in a chain.
    private struct Cluster {
        var start: Double
        var end: Double
        var members: [Member]
        var hasArrival: Bool
    }

    /// What was found for one sample type.
    private struct Tally {
        var records = RecordTally()
        var cases: [(start: Double, end: Double, records: Int, claimed: Double)] = []
    }

    private var open: [String: Cluster] = [:]
    private var tallies: [String: Tally] = [:]
    private(set) var involvedArrivals: [Int64] = []

    init(pair: CapturePair, thresholds: Thresholds) {
        self.pair = pair
        self.thresholds = thresholds
    }

    static func appliesTo(_ type: String) -> Bool {
        type == "HKCategoryTypeIdentifierSleepAnalysis" || SampleTypeCatalog.cumulativeQuantities.contains(type)
    }

    /// Sleep values compared with one another: the stages of sleep, time in bed, time awake.
    static func valueClass(_ row: TimelineScan.Row) -> String {
        guard row.type == "HKCategoryTypeIdentifierSleepAnalysis", let value = row.value else { return "" }
        if value.hasSuffix("InBed") { return "inBed" }
        if value.hasSuffix("Awake") { return "awake" }
        return "asleep"
    }

    mutating func consume(_ row: TimelineScan.Row) {
        guard Self.appliesTo(row.type) else { return }
        let key = "\(row.type)\u{1}\(row.sourceName ?? "")\u{1}\(Self.valueClass(row))"
        let member = Member(id: row.id, start: row.startDate, end: row.endDate, value: row.value)
        let tolerance = thresholds.applying(to: row.type).selfOverlapToleranceSeconds
        if var cluster = open[key], row.startDate < cluster.end - tolerance {
            // An identical copy is the duplicate detector's.
            guard
                !cluster.members.contains(where: {
                    $0.start == member.start && $0.end == member.end && $0.value == member.value
                })
            else { return }
            cluster.members.append(member)
            cluster.end = max(cluster.end, row.endDate)
            cluster.hasArrival = cluster.hasArrival || row.isArrival
            open[key] = cluster
            return
        }
        if let finished = open[key] { close(finished, key: key) }
        open[key] = Cluster(start: row.startDate, end: row.endDate, members: [member], hasArrival: row.isArrival)
    }

    private mutating func close(_ cluster: Cluster, key: String) {
        guard cluster.members.count > 1, cluster.hasArrival else { return }
        let parts = key.split(separator: "\u{1}", omittingEmptySubsequences: false)
        let type = String(parts[0])
        let source = parts[1].isEmpty ? nil : String(parts[1])
        var tally = tallies[type] ?? Tally()
        for member in cluster.members {
            tally.records.add(id: member.id, source: source, start: member.start, end: member.end)
        }
        let claimed = cluster.members.reduce(0) { $0 + ($1.end - $1.start) }
        tally.cases.append((cluster.start, cluster.end, cluster.members.count, claimed))
        tallies[type] = tally
        involvedArrivals += cluster.members.map(\.id)
    }

    mutating func findings() -> [Finding] {
        for (key, cluster) in open { close(cluster, key: key) }
        open = [:]
        return tallies.sorted { $0.key < $1.key }.map { type, tally in finding(type, tally) }
    }

    private func finding(_ type: String, _ tally: Tally) -> Finding {
        let claimed = tally.cases.reduce(0) { $0 + $1.claimed }
        let covered = tally.cases.reduce(0) { $0 + ($1.end - $1.start) }
        var evidence = tally.records.evidence
        evidence["cases"] = String(tally.cases.count)
        evidence["claimed"] = EvidenceText.duration(claimed)
        evidence["covered"] = EvidenceText.duration(covered)
        evidence["claimedSeconds"] = String(Int(claimed.rounded()))
        evidence["coveredSeconds"] = String(Int(covered.rounded()))
        evidence["examples"] = tally.cases.sorted {
            $0.claimed - ($0.end - $0.start) > $1.claimed - ($1.end - $1.start)
        }
        .prefix(3).map { item in
            "\(UTCText.iso8601(seconds: item.start)) – \(UTCText.iso8601(seconds: item.end)): "
                + "\(item.records) records claim \(EvidenceText.duration(item.claimed)) of "
                + EvidenceText.duration(item.end - item.start)
        }.joined(separator: "; ")
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        let isSleep = type == "HKCategoryTypeIdentifierSleepAnalysis"
        let spans = tally.cases.count == 1 ? (isSleep ? "night" : "stretch") : (isSleep ? "nights" : "stretches")
        return Finding(
            type: .selfOverlap, severity: .warning, sampleType: type,
            summary: "\(EvidenceText.records(tally.records.count, of: type)) from one source overlap "
                + "\(tally.cases.count == 1 ? "themselves" : "each other") on \(tally.cases.count) "
                + "\(spans): they claim \(EvidenceText.duration(claimed)) "
                + "where \(EvidenceText.duration(covered)) passed (\(tally.records.evidence["dateRange"] ?? "no dates"))",
            recordCount: tally.records.count, evidence: evidence,
            records: [.ids(role: "overlapping", tally.records.ids)])
    }
}

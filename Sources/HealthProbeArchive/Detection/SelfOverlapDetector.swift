import Foundation

/// `self_overlap`: one source's records of one type covering the same time more than once — an
/// app writing growing sleep sessions for one night (23:00–00:05, 23:00–01:05, … 23:00–06:05) so
/// that totals claim 28 hours, or step samples that overlap. Sleep is compared within its kind
/// of value (asleep stages, in bed, awake: a night in bed holds its stages); summed quantities,
/// when chosen (``Thresholds/selfOverlapSummedTypes``), as they come. Identical copies are duplicates, and two sources
/// writing one sample are a source overlap: neither counts here. Reported when a case holds
/// something C brought.
struct SelfOverlapDetector: Sendable {
    let thresholds: Thresholds

    private struct Member: Sendable {
        var id: Int64
        var start: Double
        var end: Double
        var valueKey: UInt64
    }

    /// Records of one type, source and kind of value that overlap one another in a chain.
    private struct Cluster: Sendable {
        var group: UInt64
        var start: Double
        var end: Double
        var members: [Member]
        var hasArrival: Bool
    }

    /// One case: when it spans, how many records, how much time they claim.
    private struct Case: Sendable {
        var start: Double
        var end: Double
        var records: Int
        var claimed: Double
    }

    /// What was found for one type, source and kind of value.
    private struct Tally: Sendable {
        var group: UInt64
        var ids: [(id: Int64, start: Double, end: Double)] = []
        var cases: [Case] = []
    }

    /// By ``key(group:overlapClass:)``.
    private var open: [UInt64: Cluster] = [:]
    private var tallies: [UInt64: Tally] = [:]
    private var arrivals: [UInt64: [Int64]] = [:]

    init(thresholds: Thresholds) {
        self.thresholds = thresholds
    }

    /// What one type and source's records of one kind of value are compared under.
    static func key(group: UInt64, overlapClass: Int64) -> UInt64 { group &+ UInt64(overlapClass) }

    /// Takes the next row of its type, source and kind of value, in start order (rows of others
    /// may come between).
    mutating func consume(_ row: TimelineScan.Row) {
        guard row.overlapClass != TimelineScan.OverlapClass.none else { return }
        let key = Self.key(group: row.group, overlapClass: row.overlapClass)
        let member = Member(id: row.id, start: row.startDate, end: row.endDate, valueKey: row.valueKey)
        if var cluster = open[key], row.startDate < cluster.end - thresholds.selfOverlapToleranceSeconds {
            // An identical copy is the duplicate detector's.
            guard
                !cluster.members.contains(where: {
                    $0.start == member.start && $0.end == member.end && $0.valueKey == member.valueKey
                })
            else { return }
            cluster.members.append(member)
            cluster.end = max(cluster.end, row.endDate)
            cluster.hasArrival = cluster.hasArrival || row.isArrival
            open[key] = cluster
            return
        }
        if let finished = open[key] { close(finished, key: key) }
        open[key] = Cluster(
            group: row.group, start: row.startDate, end: row.endDate, members: [member], hasArrival: row.isArrival)
    }

    private mutating func close(_ cluster: Cluster, key: UInt64) {
        guard cluster.members.count > 1, cluster.hasArrival else { return }
        var tally = tallies[key] ?? Tally(group: cluster.group)
        tally.ids += cluster.members.map { ($0.id, $0.start, $0.end) }
        let claimed = cluster.members.reduce(0) { $0 + ($1.end - $1.start) }
        tally.cases.append(
            Case(start: cluster.start, end: cluster.end, records: cluster.members.count, claimed: claimed))
        tallies[key] = tally
        arrivals[key, default: []] += cluster.members.map(\.id)
    }

    /// Forgets what was found for one type, source and kind of value, to be read again whole.
    mutating func forget(_ key: UInt64) {
        open[key] = nil
        tallies[key] = nil
        arrivals[key] = nil
    }

    /// The records of every case found (complete once ``findings(pair:names:)`` ran).
    var involvedArrivals: [Int64] { arrivals.values.flatMap { $0 } }

    /// The findings, one per sample type, every source in its evidence; `names` gives each
    /// group's type and source (``TimelineScan/names``).
    mutating func findings(pair: CapturePair, names: [UInt64: (type: String, source: String?)]) -> [Finding] {
        for (key, cluster) in open { close(cluster, key: key) }
        open = [:]
        var byType: [String: (records: RecordTally, cases: [Case])] = [:]
        for tally in tallies.values.sorted(by: { ($0.cases[0].start, $0.group) < ($1.cases[0].start, $1.group) }) {
            guard let name = names[tally.group] else { continue }
            var entry = byType[name.type] ?? (RecordTally(zone: pair.dayZone), [])
            for item in tally.ids {
                entry.records.add(id: item.id, source: name.source, start: item.start, end: item.end)
            }
            entry.cases += tally.cases
            byType[name.type] = entry
        }
        return byType.sorted { $0.key < $1.key }.map { finding($0.key, $0.value.records, $0.value.cases, pair: pair) }
    }

    private func finding(_ type: String, _ records: RecordTally, _ cases: [Case], pair: CapturePair) -> Finding {
        let claimed = cases.reduce(0) { $0 + $1.claimed }
        let covered = cases.reduce(0) { $0 + ($1.end - $1.start) }
        var evidence = records.evidence
        evidence["cases"] = String(cases.count)
        evidence["claimed"] = EvidenceText.duration(claimed)
        evidence["covered"] = EvidenceText.duration(covered)
        evidence["claimedSeconds"] = String(Int(claimed.rounded()))
        evidence["coveredSeconds"] = String(Int(covered.rounded()))
        evidence["examples"] = cases.sorted {
            ($1.claimed - ($1.end - $1.start), $0.start) < ($0.claimed - ($0.end - $0.start), $1.start)
        }
        .prefix(3).map { item in
            "\(UTCText.iso8601(seconds: item.start)) – \(UTCText.iso8601(seconds: item.end)): "
                + "\(item.records) records claim \(EvidenceText.duration(item.claimed)) of "
                + EvidenceText.duration(item.end - item.start)
        }.joined(separator: "; ")
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        let isSleep = type == "HKCategoryTypeIdentifierSleepAnalysis"
        let worstExcess = cases.map { $0.claimed - ($0.end - $0.start) }.max() ?? 0
        evidence["largestExcess"] = EvidenceText.duration(worstExcess)
        let severity: Severity =
            worstExcess >= thresholds.applying(to: type).selfOverlapWarningExcessSeconds ? .warning : .info
        let spans = cases.count == 1 ? (isSleep ? "night" : "stretch") : (isSleep ? "nights" : "stretches")
        return Finding(
            type: .selfOverlap, severity: severity, sampleType: type,
            summary: "\(EvidenceText.records(records.count, of: type)) overlap records of their own source "
                + "on \(cases.count) \(spans): they claim "
                + "\(EvidenceText.duration(claimed)) where \(EvidenceText.duration(covered)) passed "
                + "(\(records.evidence["dateRange"] ?? "no dates"))",
            recordCount: records.count, evidence: evidence, records: [.ids(role: "overlapping", records.ids)])
    }
}

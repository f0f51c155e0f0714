import Foundation

/// `conflicting_values`: one source's two (or more) records of one type and one interval with
/// different values, the later written at least a minute after the earlier and no sync
/// identifier saying one replaces the other — an app that "edited" a measurement by adding a
/// second one. Both stay in Health, so both count. Reported when a case holds something C brought.
struct ConflictingValuesDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    private var sameStart: [TimelineScan.Row] = []
    private var tallies: [String: (records: RecordTally, cases: Int)] = [:]
    private(set) var involvedArrivals: [Int64] = []

    init(pair: CapturePair, thresholds: Thresholds) {
        self.pair = pair
        self.thresholds = thresholds
    }

    mutating func consume(_ row: TimelineScan.Row) {
        guard row.numericValue != nil, !row.synced else { return }
        if let first = sameStart.first, first.startDate != row.startDate { flush() }
        sameStart.append(row)
    }

    /// Judges the records that share one start.
    private mutating func flush() {
        defer { sameStart.removeAll(keepingCapacity: true) }
        guard sameStart.count > 1 else { return }
        let groups = Dictionary(grouping: sameStart) { "\($0.type)\u{1}\($0.sourceName ?? "")\u{1}\($0.endDate)" }
        for group in groups.values where group.count > 1 && group.contains(where: \.isArrival) {
            let values = Set(group.map { "\($0.numericValue ?? 0) \($0.unit ?? "")" })
            let written = group.compactMap(\.creationDate)
            guard values.count > 1, let first = written.min(), let last = written.max(),
                last - first >= thresholds.applying(to: group[0].type).conflictMinimumRewriteSeconds
            else { continue }
            var tally = tallies[group[0].type] ?? (RecordTally(), 0)
            for row in group {
                tally.records.add(id: row.id, source: row.sourceName, start: row.startDate, end: row.endDate)
            }
            tally.cases += 1
            tallies[group[0].type] = tally
            involvedArrivals += group.filter(\.isArrival).map(\.id)
        }
    }

    mutating func findings() -> [Finding] {
        flush()
        return tallies.sorted { $0.key < $1.key }.map { type, tally in
            var evidence = tally.records.evidence
            evidence["cases"] = String(tally.cases)
            evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
            return Finding(
                type: .conflictingValues, severity: .warning, sampleType: type,
                summary: "\(tally.cases) \(SampleTypeCatalog.displayName(of: type)) measurement"
                    + "\(tally.cases == 1 ? " has" : "s have") two values from one source, the second written later "
                    + "beside the first instead of replacing it (\(tally.records.evidence["dateRange"] ?? "no dates"))",
                recordCount: tally.records.count, evidence: evidence,
                records: [.ids(role: "conflicting", tally.records.ids)])
        }
    }
}

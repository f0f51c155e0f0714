import Foundation

/// `conflicting_values`: one source's two (or more) records of one type and one interval with
/// different values, the later written at least a minute after the earlier and no sync
/// identifier saying one replaces the other — an app that "edited" a measurement by adding a
/// second one. Both stay in Health, so both count. Reported when a case holds something C brought.
struct ConflictingValuesDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    private var sameStart: [TimelineScan.Row] = []

    /// One source's type over one interval.
    private struct Slot: Hashable {
        var group: UInt64
        var end: Double
    }
    /// By type and source: the records in conflict, and how many measurements they make.
    private var tallies: [UInt64: (rows: [TimelineScan.Row], cases: Int)] = [:]
    private(set) var involvedArrivals: [Int64] = []

    init(pair: CapturePair, thresholds: Thresholds) {
        self.pair = pair
        self.thresholds = thresholds
    }

    mutating func consume(_ row: TimelineScan.Row) {
        guard row.hasNumber, !row.synced else { return }
        if let first = sameStart.first, first.startDate != row.startDate { flush() }
        sameStart.append(row)
    }

    /// Judges the records that share one start.
    private mutating func flush() {
        defer { sameStart.removeAll(keepingCapacity: true) }
        guard sameStart.count > 1 else { return }
        // A replayed sample shares its start thousands of times, all one value: nothing to judge.
        guard sameStart.contains(where: { $0.valueKey != sameStart[0].valueKey }) else { return }
        let groups = Dictionary(grouping: sameStart) { Slot(group: $0.group, end: $0.endDate) }
        for group in groups.values where group.count > 1 && group.contains(where: \.isArrival) {
            let written = group.compactMap(\.creationDate)
            guard Set(group.map(\.valueKey)).count > 1, let first = written.min(), let last = written.max(),
                last - first >= thresholds.conflictMinimumRewriteSeconds
            else { continue }
            var tally = tallies[group[0].group] ?? ([], 0)
            tally.rows += group
            tally.cases += 1
            tallies[group[0].group] = tally
            involvedArrivals += group.filter(\.isArrival).map(\.id)
        }
    }

    /// The findings, one per sample type; `names` gives each group's type and source.
    mutating func findings(names: [UInt64: (type: String, source: String?)]) -> [Finding] {
        flush()
        var byType: [String: (records: RecordTally, cases: Int)] = [:]
        for (group, tally) in tallies {
            guard let name = names[group] else { continue }
            var entry = byType[name.type] ?? (RecordTally(zone: pair.dayZone), 0)
            for row in tally.rows {
                entry.records.add(id: row.id, source: name.source, start: row.startDate, end: row.endDate)
            }
            entry.cases += tally.cases
            byType[name.type] = entry
        }
        return byType.sorted { $0.key < $1.key }.map { type, entry in
            var evidence = entry.records.evidence
            evidence["cases"] = String(entry.cases)
            evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
            return Finding(
                type: .conflictingValues, severity: .warning, sampleType: type,
                summary: "\(entry.cases) \(HealthKitCatalog.displayName(of: type)) measurement"
                    + "\(entry.cases == 1 ? " has" : "s have") two values from one source, the second written later "
                    + "beside the first instead of replacing it (\(entry.records.evidence["dateRange"] ?? "no dates"))",
                recordCount: entry.records.count, evidence: evidence,
                records: [.ids(role: "conflicting", entry.records.ids)])
        }
    }
}

import Foundation

/// `conflicting_values`: one source's two (or more) records of one type and one interval with
/// different values, the later written at least a minute after the earlier and no sync
/// identifier saying one replaces the other — an app that "edited" a measurement by adding a
/// second one. Both stay in Health, so both count. Reported when a case holds something C brought.
struct ConflictingValuesDetector: Sendable {
    let thresholds: Thresholds

    /// The rows of the current start, read in time order (``consume(_:)``).
    private var sameStart: [TimelineScan.Row] = []

    /// One source's type at one start.
    struct GroupStart: Hashable, Sendable {
        var group: UInt64
        var start: Double
    }
    /// One source's type over one interval.
    private struct Slot: Hashable {
        var group: UInt64
        var end: Double
    }
    /// The cases found, by type and source and start: each case's records.
    private var cases: [GroupStart: [[TimelineScan.Row]]] = [:]

    init(thresholds: Thresholds) {
        self.thresholds = thresholds
    }

    /// Takes the timeline's next row, rows in start order: the records of one start are judged
    /// together once the start changes.
    mutating func consume(_ row: TimelineScan.Row) {
        guard Self.isCompared(row) else { return }
        if let first = sameStart.first, first.startDate != row.startDate { flush() }
        sameStart.append(row)
    }

    /// Whether a row takes part: a number, and no sync identifier saying it replaces another.
    static func isCompared(_ row: TimelineScan.Row) -> Bool { row.hasNumber && !row.synced }

    private mutating func flush() {
        judge(sameStart: sameStart)
        sameStart.removeAll(keepingCapacity: true)
    }

    /// Judges records that share one start (compared ones only, any sources and types).
    mutating func judge(sameStart rows: [TimelineScan.Row]) {
        guard rows.count > 1 else { return }
        // A replayed sample shares its start thousands of times, all one value: nothing to judge.
        guard rows.contains(where: { $0.valueKey != rows[0].valueKey }) else { return }
        let groups = Dictionary(grouping: rows) { Slot(group: $0.group, end: $0.endDate) }
        for group in groups.values where group.count > 1 && group.contains(where: \.isArrival) {
            let written = group.compactMap(\.creationDate)
            guard Set(group.map(\.valueKey)).count > 1, let first = written.min(), let last = written.max(),
                last - first >= thresholds.conflictMinimumRewriteSeconds
            else { continue }
            cases[GroupStart(group: group[0].group, start: group[0].startDate), default: []].append(group)
        }
    }

    /// Judges one type and source at one start again, from every record it has there: what was
    /// judged of it before (without a record read late) is replaced.
    mutating func judgeAgain(_ groupStart: GroupStart, rows: [TimelineScan.Row]) {
        cases[groupStart] = nil
        judge(sameStart: rows.filter { $0.group == groupStart.group && Self.isCompared($0) })
    }

    /// The records C brought among the cases found (complete once ``findings(pair:names:)`` ran).
    var involvedArrivals: [Int64] {
        cases.values.flatMap { $0.joined() }.filter(\.isArrival).map(\.id)
    }

    /// The findings, one per sample type; `names` gives each group's type and source.
    mutating func findings(pair: CapturePair, names: [UInt64: (type: String, source: String?)]) -> [Finding] {
        flush()
        var byType: [String: (records: RecordTally, cases: Int)] = [:]
        for (groupStart, found) in cases.sorted(by: { ($0.key.start, $0.key.group) < ($1.key.start, $1.key.group) }) {
            guard let name = names[groupStart.group] else { continue }
            var entry = byType[name.type] ?? (RecordTally(zone: pair.dayZone), 0)
            for row in found.joined() {
                entry.records.add(id: row.id, source: name.source, start: row.startDate, end: row.endDate)
            }
            entry.cases += found.count
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

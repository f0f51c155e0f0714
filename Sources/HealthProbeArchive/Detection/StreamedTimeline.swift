import Foundation
internal import GRDB

/// The self-overlap and conflicting-values detectors run on an export's records as they stream
/// past the fingerprint stage, so that a first capture need not read its records back in time
/// order (through the start-date index, a million rows in random order: over a second).
///
/// Both detectors compare one source's records of one type in time order, and an export lists
/// each source's records of a type nearly in time order. A record that starts before one already
/// seen of its type and source (one read late) is judged once every record is in, from the
/// archive: its start's records for conflicting values, and its type and source's rows, read
/// again in order, for self-overlap.
///
/// A record's number here is its place in the stream: into an empty archive the n-th row the
/// capture writes has id n, and the audit uses what was gathered only when the archive confirms
/// it (``CaptureIngest/followedTimeline(_:)``); otherwise it reads the timeline as for any capture.
public struct StreamedTimeline: Sendable {
    let thresholds: Thresholds
    /// Rows seen, of every kind: the last one's number.
    private(set) var rows: Int64 = 0
    private(set) var names: [UInt64: (type: String, source: String?)] = [:]
    private(set) var selfOverlaps: SelfOverlapDetector
    private(set) var conflicts: ConflictingValuesDetector
    /// Starts of compared records read late, by type and source.
    private var lateStarts: Set<ConflictingValuesDetector.GroupStart> = []
    /// Self-overlap's keys with a record read late, with their group and kind of value.
    private var disordered: [UInt64: (group: UInt64, overlapClass: Int64)] = [:]
    /// Every type and source met but the current one.
    private var groups: [UInt64: Group] = [:]
    /// The type and source of the last record: consecutive records nearly always share them.
    private var current: Group?

    private struct Group: Sendable {
        var key: UInt64
        var type: [UInt8]
        var source: [UInt8]?
        var isSleep: Bool
        var isSummed: Bool
        var isExcluded: Bool
        var lastStart = -Double.infinity
        /// Compared records of the latest start, judged together when the start changes.
        var run: [TimelineScan.Row] = []
        /// The first and last row numbers of the type and source: where to read it again.
        var firstRow: Int64
        var lastRow: Int64
    }

    public init(thresholds: Thresholds) {
        self.thresholds = thresholds
        selfOverlaps = SelfOverlapDetector(thresholds: thresholds)
        conflicts = ConflictingValuesDetector(thresholds: thresholds)
    }

    /// Follows the batch's last row, just appended.
    mutating func follow(_ row: PreparedBatch.Row, in bytes: UnsafeRawBufferPointer) {
        rows += 1
        func slice(_ span: PreparedBatch.Span) -> UnsafeRawBufferPointer? {
            span.isNull ? nil : UnsafeRawBufferPointer(rebasing: bytes[span.range])
        }
        guard let start = row.numbers.startDate, let end = row.numbers.endDate, let type = slice(row.text.type),
            slice(row.text.kind)?.equals(Self.recordKind) == true
        else { return }
        let source = slice(row.text.sourceName)
        if current.map({ type.equals($0.type) && Self.same(source, $0.source) }) != true {
            enter(type: type, source: source)
        }
        guard var group = current.take() else { return }
        defer { current = group }
        group.lastRow = rows
        let number = row.numbers.numericValue
        guard !group.isExcluded, number != nil || group.isSleep else { return }
        let value = slice(row.text.value)
        let item = TimelineScan.Row(
            id: rows, group: group.key,
            overlapClass: TimelineScan.OverlapClass.of(isSleep: group.isSleep, isSummed: group.isSummed, value: value),
            valueKey: TimelineScan.valueKey(
                unit: slice(row.text.unit).map { $0.assumingMemoryBound(to: UInt8.self) },
                value: value.map { $0.assumingMemoryBound(to: UInt8.self) }, number: number),
            hasNumber: number != nil, creationDate: row.numbers.creationDate, startDate: start, endDate: end,
            synced: slice(row.text.metadata)?.contains(TimelineScan.syncIdentifierKey) ?? false, isArrival: true)
        guard start >= group.lastStart else {
            setAside(item)
            return
        }
        group.lastStart = start
        selfOverlaps.consume(item)
        guard ConflictingValuesDetector.isCompared(item) else { return }
        if let first = group.run.first, first.startDate != start {
            conflicts.judge(sameStart: group.run)
            group.run.removeAll(keepingCapacity: true)
        }
        group.run.append(item)
    }

    /// Finishes what the stream left open, once every record is in the archive: each type and
    /// source's last start judged, the starts of records read late judged again from every record
    /// there, and the types and sources self-overlap found a late record of read again whole, in
    /// time order. Then the detectors hold what reading the whole timeline would have given them.
    mutating func settle(_ db: Database, pair: CapturePair) throws {
        if let last = current.take() { groups[last.key] = last }
        for group in groups.values { conflicts.judge(sameStart: group.run) }
        var scan = TimelineScan(pair: pair, summedTypes: thresholds.selfOverlapSummedTypes)
        for (start, late) in Dictionary(grouping: lateStarts, by: \.start).sorted(by: { $0.key < $1.key }) {
            var rows: [TimelineScan.Row] = []
            try scan.read(db, where: "startDate = :start", throughStartIndex: true, arguments: ["start": start]) {
                rows.append($0)
            }
            for groupStart in late { conflicts.judgeAgain(groupStart, rows: rows) }
        }
        for (key, late) in disordered.sorted(by: { $0.key < $1.key }) {
            guard let group = groups[late.group], let name = names[late.group] else { continue }
            selfOverlaps.forget(key)
            try scan.read(
                db, where: "id BETWEEN :first AND :last AND type = :type AND sourceName IS :source",
                throughStartIndex: false,
                arguments: ["first": group.firstRow, "last": group.lastRow, "type": name.type, "source": name.source]
            ) { row in
                if row.group == late.group && row.overlapClass == late.overlapClass { selfOverlaps.consume(row) }
            }
        }
        groups = [:]
        lateStarts = []
        disordered = [:]
    }

    /// A record read late: left for ``settle(_:pair:)``.
    private mutating func setAside(_ item: TimelineScan.Row) {
        if ConflictingValuesDetector.isCompared(item) {
            lateStarts.insert(ConflictingValuesDetector.GroupStart(group: item.group, start: item.startDate))
        }
        if item.overlapClass != TimelineScan.OverlapClass.none {
            let key = SelfOverlapDetector.key(group: item.group, overlapClass: item.overlapClass)
            disordered[key] = (item.group, item.overlapClass)
        }
    }

    /// Makes the type and source of the record at hand current.
    private mutating func enter(type: UnsafeRawBufferPointer, source: UnsafeRawBufferPointer?) {
        if let previous = current.take() { groups[previous.key] = previous }
        let typeBytes = type.assumingMemoryBound(to: UInt8.self)
        let key = TimelineScan.key(typeBytes, source.map { $0.assumingMemoryBound(to: UInt8.self) })
        if let known = groups.removeValue(forKey: key) {
            current = known
            return
        }
        let typeName = String(decoding: type, as: UTF8.self)
        names[key] = (typeName, source.map { String(decoding: $0, as: UTF8.self) })
        current = Group(
            key: key, type: Array(type), source: source.map(Array.init), isSleep: typeName == TimelineScan.sleepType,
            isSummed: thresholds.selfOverlapSummedTypes.contains(typeName),
            isExcluded: typeName.hasPrefix(TimelineScan.excludedTypePrefix), firstRow: rows, lastRow: rows)
    }

    private static func same(_ bytes: UnsafeRawBufferPointer?, _ known: [UInt8]?) -> Bool {
        guard let bytes, let known else { return bytes == nil && known == nil }
        return bytes.equals(known)
    }

    private static let recordKind = Array(HealthRecord.Kind.record.rawValue.utf8)
}

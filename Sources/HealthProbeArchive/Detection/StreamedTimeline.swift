import AppleHealthExport
import Foundation
internal import GRDB

/// The self-overlap and conflicting-values detectors run on an export's or a Health database's
/// records as they stream past the stage that prepares them, so that a first capture need not read its records back in time
/// order (through the start-date index, a million rows in random order: over a second).
///
/// Both detectors compare one source's records of one type in time order, and an export (or a
/// database) lists each source's records of a type nearly in time order. A record that starts before one already
/// seen of its type and source (one read late) is judged once every record is in, from the
/// archive: its start's records for conflicting values, and its type and source's rows, read
/// again in order, for self-overlap.
///
/// A record's number here is its place in the stream: into an empty archive the n-th row the
/// capture writes has id n, and the audit uses what was gathered only when the archive confirms
/// it (``CaptureWrite/confirmed(_:)``); otherwise it reads the timeline as for any capture.
package struct StreamedTimeline: Sendable {
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
    /// Every type and source met, in the order met.
    private var groups: [Group] = []
    /// The bytes of every group's type and source, one after another: a record's are compared with
    /// them in place, retaining nothing.
    private var groupNames: [UInt8] = []
    private var groupIndex: [UInt64: Int] = [:]
    /// The types and sources of the last few records first met again, latest first (indices into
    /// ``groups``): consecutive records nearly always share them, and a few alternate.
    private var recent: [Int] = []

    private struct Group: Sendable {
        var key: UInt64
        /// Where the type's and the source's bytes lie in ``groupNames``.
        var type: Range<Int>
        var source: Range<Int>?
        var isSleep: Bool
        var isSummed: Bool
        var isExcluded: Bool
        var lastStart = -Double.infinity
        /// Compared records of the latest start, judged together when the start changes.
        var run: [TimelineScan.Row] = []
        /// The first and last row numbers of the type and source: where to read it again.
        var firstRow: Int64
        var lastRow: Int64
        /// The unit last seen and its hash: a type's records share one.
        var unit: [UInt8]? = nil
        var unitKey = TimelineScan.hash(nil)
    }

    package init(thresholds: Thresholds) {
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
            slice(row.text.kind).map(Self.isRecordKind) == true
        else { return }
        let index = groupOf(type: type, source: slice(row.text.sourceName))
        groups[index].lastRow = rows
        let number = row.numbers.numericValue
        guard !groups[index].isExcluded, number != nil || groups[index].isSleep else { return }
        let value = slice(row.text.value)
        let item = TimelineScan.Row(
            id: rows, group: groups[index].key,
            overlapClass: TimelineScan.OverlapClass.of(
                isSleep: groups[index].isSleep, isSummed: groups[index].isSummed, value: value),
            valueKey: TimelineScan.valueKey(
                unitKey: unitKey(slice(row.text.unit), of: index), value: value?.assumingMemoryBound(to: UInt8.self),
                number: number),
            hasNumber: number != nil, creationDate: row.numbers.creationDate, startDate: start, endDate: end,
            synced: number != nil && slice(row.text.metadata)?.contains(TimelineScan.syncIdentifierKey) == true,
            isArrival: true)
        guard start >= groups[index].lastStart else {
            setAside(item)
            return
        }
        groups[index].lastStart = start
        if item.overlapClass != TimelineScan.OverlapClass.none { selfOverlaps.consume(item) }
        guard ConflictingValuesDetector.isCompared(item) else { return }
        if let first = groups[index].run.first, first.startDate != start {
            if groups[index].run.count > 1 { conflicts.judge(sameStart: groups[index].run) }
            groups[index].run.removeAll(keepingCapacity: true)
        }
        groups[index].run.append(item)
    }

    /// The index of the record's type and source in ``groups``, met now if new.
    private mutating func groupOf(type: UnsafeRawBufferPointer, source: UnsafeRawBufferPointer?) -> Int {
        let met = groupNames.withUnsafeBytes { names -> Int? in
            for position in recent.indices {
                let index = recent[position]
                if Self.same(type, groups[index].type, in: names), Self.same(source, groups[index].source, in: names) {
                    return index
                }
            }
            return nil
        }
        if let met { return met }
        let key = TimelineScan.key(
            type.assumingMemoryBound(to: UInt8.self), source.map { $0.assumingMemoryBound(to: UInt8.self) })
        let index = groupIndex[key] ?? meet(key: key, type: type, source: source)
        recent.insert(index, at: 0)
        if recent.count > 4 { recent.removeLast() }
        return index
    }

    private mutating func meet(key: UInt64, type: UnsafeRawBufferPointer, source: UnsafeRawBufferPointer?) -> Int {
        let typeName = String(decoding: type, as: UTF8.self)
        names[key] = (typeName, source.map { String(decoding: $0, as: UTF8.self) })
        groupIndex[key] = groups.count
        let typeBytes = appendName(type)
        let sourceBytes = source.map { appendName($0) }
        groups.append(
            Group(
                key: key, type: typeBytes, source: sourceBytes,
                isSleep: typeName == TimelineScan.sleepType,
                isSummed: thresholds.selfOverlapSummedTypes.contains(typeName),
                isExcluded: typeName.hasPrefix(TimelineScan.excludedTypePrefix), firstRow: rows, lastRow: rows))
        return groups.count - 1
    }

    /// The key of a record's unit, hashed only when it differs from the last of its group's.
    private mutating func unitKey(_ unit: UnsafeRawBufferPointer?, of index: Int) -> UInt64 {
        if Self.same(unit, groups[index].unit) { return groups[index].unitKey }
        groups[index].unit = unit.map(Array.init)
        groups[index].unitKey = TimelineScan.hash(unit?.assumingMemoryBound(to: UInt8.self))
        return groups[index].unitKey
    }

    /// Finishes what the stream left open, once every record is in the archive: each type and
    /// source's last start judged, the starts of records read late judged again from every record
    /// there, and the types and sources self-overlap found a late record of read again whole, in
    /// time order. Then the detectors hold what reading the whole timeline would have given them.
    mutating func settle(_ db: Database, pair: CapturePair) throws {
        for group in groups { conflicts.judge(sameStart: group.run) }
        var scan = TimelineScan(pair: pair, summedTypes: thresholds.selfOverlapSummedTypes)
        for (start, late) in Dictionary(grouping: lateStarts, by: \.start).sorted(by: { $0.key < $1.key }) {
            var rows: [TimelineScan.Row] = []
            try scan.read(db, where: "startDate = :start", throughStartIndex: true, arguments: ["start": start]) {
                rows.append($0)
            }
            for groupStart in late { conflicts.judgeAgain(groupStart, rows: rows) }
        }
        for (key, late) in disordered.sorted(by: { $0.key < $1.key }) {
            guard let index = groupIndex[late.group], let name = names[late.group] else { continue }
            let group = groups[index]
            selfOverlaps.forget(key)
            try scan.read(
                db, where: "id BETWEEN :first AND :last AND type = :type AND sourceName IS :source",
                throughStartIndex: false,
                arguments: ["first": group.firstRow, "last": group.lastRow, "type": name.type, "source": name.source]
            ) { row in
                if row.group == late.group && row.overlapClass == late.overlapClass { selfOverlaps.consume(row) }
            }
        }
        groups = []
        groupNames = []
        groupIndex = [:]
        recent = []
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

    private static func same(_ bytes: UnsafeRawBufferPointer?, _ known: [UInt8]?) -> Bool {
        guard let bytes, let known else { return bytes == nil && known == nil }
        return known.hasBytes(of: bytes)
    }

    /// Whether `bytes` are those of a group's name, `known` in `names`.
    private static func same(
        _ bytes: UnsafeRawBufferPointer?, _ known: Range<Int>?, in names: UnsafeRawBufferPointer
    ) -> Bool {
        guard let bytes, let known else { return bytes == nil && known == nil }
        return bytes.count == known.count
            && (bytes.isEmpty || memcmp(names.baseAddress! + known.lowerBound, bytes.baseAddress!, bytes.count) == 0)
    }

    /// Where a group's name lies once appended to ``groupNames``.
    private mutating func appendName(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        let start = groupNames.count
        groupNames.append(contentsOf: bytes)
        return start..<groupNames.count
    }

    /// Whether a row's kind is `record` (a small string's bytes: no global array to retain).
    private static func isRecordKind(_ kind: UnsafeRawBufferPointer) -> Bool {
        var name = HealthRecord.Kind.record.rawValue
        return name.withUTF8 { kind.elementsEqual($0) }
    }
}

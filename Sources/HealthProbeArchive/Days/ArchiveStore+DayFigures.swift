import Foundation
internal import GRDB

extension ArchiveStore {
    /// How far before a day a sample that reaches into it may start: a daily total written from
    /// the evening before, a night's sleep. Longer samples are counted from this far back.
    static let dayFigureLookback: Double = 2 * 86_400

    /// Each day's figure of each of `types` in `days` (local days of `zone`, counted from
    /// 1970-01-01), as the Health app shows it (docs/DESIGN.md §8a), from the records the archive
    /// holds now; days without samples have none. In day order, then type order. Read in start
    /// order, a long period by several readers at once (``ParallelDayFigures``).
    public func dayFigures(types: [String], days: ClosedRange<Int64>, zone: TimeZone) throws -> [DayFigure] {
        guard !types.isEmpty else { return [] }
        return try ParallelDayFigures.read(writer, types: types, days: days, zone: zone)
    }

    /// The same figures handed to `body` a few weeks at a time, in order, as they are read: memory
    /// holds a few weeks' figures, never the period's, however long it is.
    public func dayFigures(
        types: [String], days: ClosedRange<Int64>, zone: TimeZone, each body: ([DayFigure]) throws -> Void
    ) throws {
        guard !types.isEmpty else { return }
        try ParallelDayFigures.stream(writer, types: types, days: days, zone: zone, body)
    }

    /// Every order the user set, by type (names, best first).
    public func chosenSourceOrders() throws -> [String: [String]] {
        try read { db in try DaySourceOrders.read(db, types: nil).chosen }
    }

    /// The sources known to have written each type, by name, as a source order names them (a
    /// source that entered records by hand also as its hand-entered self), sorted.
    public func knownSources() throws -> [String: [String]] {
        try read { db in try SourceArrival.names(db) }
    }

    /// Sets a type's source order (names, best first), or forgets it for an empty list, noted in
    /// the audit trail.
    public func setSourceOrder(_ names: [String], of type: String) throws {
        let value = names.isEmpty ? nil : names.joined(separator: "\n")
        try storeSettings(
            [SourceOrder.settingKey(type: type): value],
            auditMessage: names.isEmpty
                ? "Source order of \(type): Health's default"
                : "Source order of \(type) set (\(names.count) source\(names.count == 1 ? "" : "s"))")
    }
}

/// Reads the records of a few types in start order into a ``DayFigureBuilder``.
struct DayFigureReader {
    private let db: Database
    private let types: [String]
    private let zone: TimeZone
    private let orders: DaySourceOrders
    private var devices: [Int64: String] = [:]
    /// The sources that ever entered a record of these types by hand: only their records'
    /// metadata is read for the mark.
    private let handEntering: [String]

    init(_ db: Database, types: [String], zone: TimeZone) throws {
        self.db = db
        self.types = types
        self.zone = zone
        orders = try DaySourceOrders.read(db, types: types)
        handEntering = try SourceArrival.handEnteringSources(db, types: types).sorted()
        for row in try Row.fetchAll(db, sql: "SELECT id, description FROM device") {
            devices[row[0]] = row[1]
        }
    }

    mutating func read(_ range: ClosedRange<Int64>) throws -> [DayFigure] {
        var builder = DayFigureBuilder(days: range, zone: zone, orders: orders, types: types)
        // A value's text only for sleep (its stage), the hand-entry mark found by SQLite in the
        // records of the sources that use it: a year of heart rate is a hundred thousand rows,
        // and each string made or metadata read is time.
        let handEntry =
            handEntering.isEmpty
            ? "0"
            : """
            sourceName IN (\(databaseQuestionMarks(count: handEntering.count)))
                AND instr(metadata, '\(SourceArrival.handEntryMark)') > 0
            """
        let cursor = try SQLiteRowCursor(
            db,
            sql: """
                SELECT type, sourceName, deviceId, unit,
                    CASE WHEN type = 'HKCategoryTypeIdentifierSleepAnalysis' THEN value END,
                    numericValue, startDate, endDate, \(handEntry)
                FROM record
                WHERE startDate >= ? AND startDate < ? AND goneCapture IS NULL AND kind = 'record'
                    AND type IN (\(databaseQuestionMarks(count: types.count)))
                ORDER BY startDate
                """,
            arguments: StatementArguments(handEntering) + [builder.earliestStart(), builder.end()]
                + StatementArguments(types))
        // Rows repeat their type, source and unit: each made a string once per run of them.
        var type = RepeatedText()
        var source = RepeatedText()
        var unit = RepeatedText()
        while try cursor.step() {
            guard let start = cursor.double(6), let typeName = type.text(cursor.bytes(0)) else { continue }
            builder.add(
                type: typeName, sourceName: source.text(cursor.bytes(1)) ?? "",
                deviceModel: cursor.integer(2).flatMap { devices[$0] }, enteredByHand: cursor.integer(8) == 1,
                start: start, end: cursor.double(7), amount: cursor.double(5), unit: unit.text(cursor.bytes(3)),
                category: cursor.string(4))
        }
        return builder.finish()
    }
}

/// The last text a column held, as a string made once while the column repeats it.
struct RepeatedText {
    private var bytes: [UInt8] = []
    private var last: String?

    mutating func text(_ column: UnsafeBufferPointer<UInt8>?) -> String? {
        guard let column else { return nil }
        if let last, column.count == bytes.count,
            column.isEmpty
                || bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, column.baseAddress!, column.count) == 0 })
        {
            return last
        }
        bytes = Array(column)
        let made = String(decoding: column, as: UTF8.self)
        last = made
        return made
    }
}

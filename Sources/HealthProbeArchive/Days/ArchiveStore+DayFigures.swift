import Foundation
import GRDB

extension ArchiveStore {
    /// How far before a day a sample that reaches into it may start: a daily total written from
    /// the evening before, a night's sleep. Longer samples are counted from this far back.
    public static let dayFigureLookback: Double = 2 * 86_400

    /// Each day's figure of each of `types` in `days` (local days of `zone`, counted from
    /// 1970-01-01), as the Health app shows it (docs/DESIGN.md §8a), from the records the archive
    /// holds now; days without samples have none. In day order, then type order. One read, in
    /// start order: memory holds a day's samples, not the period's.
    public func dayFigures(types: [String], days: ClosedRange<Int64>, zone: TimeZone) throws -> [DayFigure] {
        guard !types.isEmpty else { return [] }
        return try writer.read { db in
            var reader = try DayFigureReader(db, types: types, zone: zone)
            return try reader.read(days)
        }
    }

    /// The order the user set for a type's sources (names, best first); empty for Health's default.
    public func sourceOrder(of type: String) throws -> [String] {
        try writer.read { db in try DayFigureReader.chosenOrder(db, type: type) }
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

    init(_ db: Database, types: [String], zone: TimeZone) throws {
        self.db = db
        self.types = types
        self.zone = zone
        orders = try DaySourceOrders.read(db, types: types)
        for row in try Row.fetchAll(db, sql: "SELECT id, description FROM device") {
            devices[row[0]] = row[1]
        }
    }

    static func chosenOrder(_ db: Database, type: String) throws -> [String] {
        guard let text = try SettingRows.value(db, SourceOrder.settingKey(type: type)) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    mutating func read(_ range: ClosedRange<Int64>) throws -> [DayFigure] {
        var builder = DayFigureBuilder(days: range, zone: zone, orders: orders, types: types)
        let cursor = try SQLiteRowCursor(
            db,
            sql: """
                SELECT type, sourceName, deviceId, unit, value, numericValue, startDate, endDate, metadata FROM record
                WHERE startDate >= ? AND startDate < ? AND goneCapture IS NULL AND kind = 'record'
                    AND type IN (\(databaseQuestionMarks(count: types.count)))
                ORDER BY startDate
                """,
            arguments: [builder.earliestStart(), builder.end()] + StatementArguments(types))
        while try cursor.step() {
            guard let start = cursor.double(6), let type = cursor.string(0) else { continue }
            builder.add(
                type: type, sourceName: cursor.string(1) ?? "", deviceModel: cursor.integer(2).flatMap { devices[$0] },
                enteredByHand: DayFigureBuilder.enteredByHand(cursor.bytes(8)), start: start, end: cursor.double(7),
                amount: cursor.double(5), unit: cursor.string(3), category: cursor.string(4))
        }
        return builder.finish()
    }
}

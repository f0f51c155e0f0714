import Foundation
import GRDB
import HealthProbeArchive

/// The SQLite export's `dailySummaries` and `dailySources`: each local day's figure of each type
/// as the Health app shows it (docs/DESIGN.md §8a, the figures `healthprobe day` gives), of
/// exactly what the export holds, of any capture — fed the rows as they are written
/// (``DayFigureFeed``), a type whose rows come out of time order read back sorted — and each
/// source's part.
enum DailyFiguresTable {
    static let schema = """
        CREATE TABLE dailySummaries (
            type TEXT NOT NULL, day TEXT NOT NULL, kind TEXT NOT NULL, unit TEXT, count INTEGER NOT NULL,
            sum REAL, min REAL, max REAL, mean REAL, inBed REAL, copies INTEGER NOT NULL, PRIMARY KEY (type, day));
        CREATE TABLE dailySources (
            type TEXT NOT NULL, day TEXT NOT NULL, place INTEGER NOT NULL, source TEXT NOT NULL, tier TEXT NOT NULL,
            counted REAL, leftOut REAL, samples INTEGER NOT NULL, PRIMARY KEY (type, day, place));
        """

    /// Seconds since 1970 of an ISO 8601 text with its offset, in SQL: through `julianday`, whose
    /// days carry about 50 µs of rounding at these dates, so rounded to the millisecond an export
    /// writes (a sample ending at midnight must not reach a microsecond into the next day).
    private static func instant(_ column: String) -> String {
        "ROUND((julianday(\(column)) - 2440587.5) * 86400.0, 3)"
    }

    /// Writes `figures` (fed as the rows were written, ``DayFigureFeed``), and the figures of
    /// the types in `readingBack`, whose rows came too far out of time order to be fed: read
    /// back from `samples` sorted by instant.
    static func write(
        _ db: Database, figures fed: [DayFigure], readingBack: Set<String>, zone: TimeZone, orders: DaySourceOrders
    ) throws {
        try db.execute(sql: schema)
        var figures = fed
        if !readingBack.isEmpty {
            figures += try readBack(db, types: readingBack.sorted(), zone: zone, orders: orders)
        }
        try insert(figures, db)
    }

    /// The figures of `types` from the export's own `samples`, sorted by instant, over the
    /// export's days.
    private static func readBack(
        _ db: Database, types: [String], zone: TimeZone, orders: DaySourceOrders
    ) throws -> [DayFigure] {
        let present = "kind = 'record' AND status = 'present'"
        guard
            let bounds = try Row.fetchOne(
                db, sql: "SELECT MIN(\(instant("startDate"))), MAX(\(instant("endDate"))) FROM samples WHERE \(present)"
            ),
            let first = bounds[0] as Double?, let last = bounds[1] as Double?
        else { return [] }
        var days = LocalDays(zone: zone)
        var builder = DayFigureBuilder(
            days: days.day(of: first)...days.day(of: max(first, last)), zone: zone, orders: orders, types: types)
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT s.type, s.sourceName, d.description, instr(s.metadata, '"HKWasUserEntered":"1"') > 0,
                    \(instant("s.startDate")), \(instant("s.endDate")), s.value, s.unit,
                    CASE WHEN s.type = 'HKCategoryTypeIdentifierSleepAnalysis' THEN s.textValue END
                FROM samples s LEFT JOIN devices d ON d.id = s.deviceId
                WHERE \(present) AND s.type IN (\(databaseQuestionMarks(count: types.count))) ORDER BY 5
                """, arguments: StatementArguments(types))
        while let row = try cursor.next() {
            guard let start = row[4] as Double?, let type = row[0] as String? else { continue }
            builder.add(
                type: type, sourceName: row[1] ?? "", deviceModel: row[2], enteredByHand: row[3] ?? false, start: start,
                end: row[5], amount: row[6], unit: row[7], category: row[8])
        }
        return builder.finish()
    }

    private static func insert(_ figures: [DayFigure], _ db: Database) throws {
        let summary = try db.makeStatement(
            sql: """
                INSERT INTO dailySummaries (type, day, kind, unit, count, sum, min, max, mean, inBed, copies)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let source = try db.makeStatement(
            sql: """
                INSERT INTO dailySources (type, day, place, source, tier, counted, leftOut, samples)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for figure in figures {
            let day = UTCText.day(figure.day)
            let discrete = figure.kind == .discrete
            try summary.execute(arguments: [
                figure.type, day, figure.kind.rawValue, figure.unit, figure.samples, discrete ? nil : figure.value,
                figure.minimum, figure.maximum, discrete ? figure.value : nil, figure.inBed, figure.copies,
            ])
            for part in figure.sources {
                try source.execute(arguments: [
                    figure.type, day, part.place, part.source, part.tier.rawValue, discrete ? nil : part.counted,
                    discrete ? nil : part.overlapped, part.samples,
                ])
            }
        }
    }
}

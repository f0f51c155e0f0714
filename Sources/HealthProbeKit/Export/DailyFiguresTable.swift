import Foundation
import GRDB
import HealthProbeArchive

/// The SQLite export's `dailySummaries` and `dailySources`: each local day's figure of each type
/// as the Health app shows it (docs/DESIGN.md §8a, the figures `healthprobe day` gives), of
/// exactly what the export holds, of any capture — fed the rows as they are written
/// (``DayFigureFeed``), a type whose rows come out of time order read back sorted — and each
/// source's part. The fed figures wait in temporary tables as each day is finished (SQLite's
/// temporary file, not memory: a ten-year export's twenty years held 67,653 figures and 75,170
/// source parts, 50 MB), and are copied in day and type order at the end.
enum DailyFiguresTable {
    static let schema = """
        CREATE TABLE dailySummaries (
            type TEXT NOT NULL, day TEXT NOT NULL, kind TEXT NOT NULL, unit TEXT, count INTEGER NOT NULL,
            sum REAL, min REAL, max REAL, mean REAL, inBed REAL, copies INTEGER NOT NULL, PRIMARY KEY (type, day));
        CREATE TABLE dailySources (
            type TEXT NOT NULL, day TEXT NOT NULL, place INTEGER NOT NULL, source TEXT NOT NULL, tier TEXT NOT NULL,
            counted REAL, leftOut REAL, samples INTEGER NOT NULL, PRIMARY KEY (type, day, place));
        """

    /// The tables the fed figures wait in, in the temporary database (on file: `temp_store` is
    /// set to `FILE` with them).
    static let stagingSchema = """
        PRAGMA temp_store = FILE;
        CREATE TEMP TABLE stagedSummaries (
            type TEXT NOT NULL, day TEXT NOT NULL, kind TEXT NOT NULL, unit TEXT, count INTEGER NOT NULL,
            sum REAL, min REAL, max REAL, mean REAL, inBed REAL, copies INTEGER NOT NULL);
        CREATE TEMP TABLE stagedSources (
            type TEXT NOT NULL, day TEXT NOT NULL, place INTEGER NOT NULL, source TEXT NOT NULL, tier TEXT NOT NULL,
            counted REAL, leftOut REAL, samples INTEGER NOT NULL);
        """

    /// Figures of finished days, set aside until ``write(_:figures:firstDay:readingBack:zone:orders:)``.
    static func stage(_ figures: [DayFigure], _ db: Database) throws {
        try insert(figures, db, summaries: "temp.stagedSummaries", sources: "temp.stagedSources")
    }

    /// Seconds since 1970 of an ISO 8601 text with its offset, in SQL: through `julianday`, whose
    /// days carry about 50 µs of rounding at these dates, so rounded to the millisecond an export
    /// writes (a sample ending at midnight must not reach a microsecond into the next day).
    private static func instant(_ column: String) -> String {
        "ROUND((julianday(\(column)) - 2440587.5) * 86400.0, 3)"
    }

    /// Writes the figures fed as the rows were written (``DayFigureFeed``): those staged, from
    /// `firstDay` on, and the last `figures`, in day then type order; then the figures of the types
    /// in `readingBack`, whose rows came too far out of time order to be fed (any staged of them
    /// dropped), read back from `samples` sorted by instant.
    static func write(
        _ db: Database, figures fed: [DayFigure], firstDay: Int64?, readingBack: Set<String>, zone: TimeZone,
        orders: DaySourceOrders
    ) throws {
        try db.execute(sql: schema)
        try stage(fed, db)
        let dropped = readingBack.sorted()
        if !dropped.isEmpty {
            let marks = databaseQuestionMarks(count: dropped.count)
            for table in ["temp.stagedSummaries", "temp.stagedSources"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE type IN (\(marks))", arguments: StatementArguments(dropped))
            }
        }
        let from: String = firstDay.map { UTCText.day($0) } ?? ""
        try db.execute(
            sql: """
                INSERT INTO dailySummaries (type, day, kind, unit, count, sum, min, max, mean, inBed, copies)
                SELECT type, day, kind, unit, count, sum, min, max, mean, inBed, copies FROM temp.stagedSummaries
                WHERE day >= ? ORDER BY day, type;
                INSERT INTO dailySources (type, day, place, source, tier, counted, leftOut, samples)
                SELECT type, day, place, source, tier, counted, leftOut, samples FROM temp.stagedSources
                WHERE day >= ? ORDER BY day, type, place;
                DROP TABLE temp.stagedSummaries;
                DROP TABLE temp.stagedSources;
                """, arguments: [from, from])
        if !dropped.isEmpty {
            try insert(
                try readBack(db, types: dropped, zone: zone, orders: orders), db, summaries: "dailySummaries",
                sources: "dailySources")
        }
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

    private static func insert(_ figures: [DayFigure], _ db: Database, summaries: String, sources: String) throws {
        guard !figures.isEmpty else { return }
        let summary = try db.cachedStatement(
            sql: """
                INSERT INTO \(summaries) (type, day, kind, unit, count, sum, min, max, mean, inBed, copies)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let source = try db.cachedStatement(
            sql: """
                INSERT INTO \(sources) (type, day, place, source, tier, counted, leftOut, samples)
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

internal import GRDB

/// The records of one type the archive holds now, as the latest capture's way in keeps them (an
/// export's and a backup's records, or the phone's), counted on the local days their starts fall
/// on: the records chart of a type, in the days every other face uses.
struct HeldRecords {
    private let db: Database
    private let latest: Int64
    private let type: String
    private let population: String

    init(_ db: Database, latest: Int64, type: String) throws {
        self.db = db
        self.latest = latest
        self.type = type
        let origin =
            try String.fetchOne(db, sql: "SELECT origin FROM capture WHERE id = ?", arguments: [latest]).flatMap(
                CaptureOrigin.init(rawValue:))
            ?? .export
        population = CaptureMembership.population(of: origin)
    }

    /// Held records of each local day of `range` that has any.
    func counts(in range: DayRange, _ local: inout LocalDays) throws -> [Int64: Int] {
        let instants = local.span(of: range)
        var counts: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(LocalQuarters.sql("startDate")) AS quarter, COUNT(*) AS n FROM record
                WHERE startDate >= ? AND startDate < ? AND type = ? AND goneCapture IS NULL AND \(population)
                GROUP BY quarter
                """, arguments: [instants.lowerBound, instants.upperBound, type])
        while let row = try rows.next() {
            counts[local.day(ofQuarter: row["quarter"]), default: 0] += row["n"] as Int
        }
        return counts
    }

    /// The first and last local day with a held record. The latest capture's UTC day bins say
    /// which UTC days those are; the records of those two days say which local days.
    func span(_ local: inout LocalDays) throws -> DayRange? {
        guard
            let bins = try Row.fetchOne(
                db, sql: "SELECT MIN(day) AS first, MAX(day) AS last FROM typeDayBin WHERE captureId = ? AND type = ?",
                arguments: [latest, type]),
            let first: Int64 = bins["first"], let last: Int64 = bins["last"]
        else { return nil }
        func edge(_ day: Int64, _ aggregate: String) throws -> Int64 {
            let instant = try Double.fetchOne(
                db,
                sql: """
                    SELECT \(aggregate)(startDate) FROM record
                    WHERE startDate >= ? AND startDate < ? AND type = ? AND goneCapture IS NULL AND \(population)
                    """, arguments: [Double(day) * 86_400, Double(day + 1) * 86_400, type])
            return local.day(of: instant ?? Double(day) * 86_400)
        }
        return DayRange(first: try edge(first, "MIN"), last: try edge(last, "MAX"))
    }
}

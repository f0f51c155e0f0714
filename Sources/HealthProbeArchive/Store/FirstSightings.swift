internal import GRDB

/// Writes the first sighting (``RecordSightings``) of each record a capture stores, through
/// statements bound in place: one for a record stored alone, one for the rows a many-row insert
/// just numbered, without reading them back.
struct FirstSightings {
    private let db: Database
    private let one: SQLiteBinding
    /// The sightings of ``RowAppender/rowsPerStatement`` records numbered on from `?2`: rows of
    /// values, which SQLite steps through in place (a recursive `WITH` counting them kept a
    /// queue table, and took half as long again: 0.35 s against 0.2 s a million in memory).
    private let range: SQLiteBinding

    init(_ db: Database, captureID: Int64) throws {
        self.db = db
        one = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: "INSERT INTO recordSighting (recordId, lastSeenCapture) VALUES (?2, ?1)"))
        let rows = (0..<RowAppender.rowsPerStatement).map { "(?2 + \($0), ?1)" }
        range = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: "INSERT INTO recordSighting (recordId, lastSeenCapture) VALUES \(rows.joined(separator: ", "))"))
        for statement in [one, range] { statement.bind(1, captureID) }
    }

    /// The record just stored as `recordID`.
    func write(_ recordID: Int64) throws {
        one.bind(2, recordID)
        _ = try one.stepCountingChanges(db)
    }

    /// The records a many-row insert just stored as `ids` (``RowAppender/rowsPerStatement`` of them).
    func write(_ ids: ClosedRange<Int64>) throws {
        precondition(
            ids.count == RowAppender.rowsPerStatement, "a many-row insert stores \(RowAppender.rowsPerStatement) rows")
        range.bind(2, ids.lowerBound)
        _ = try range.stepCountingChanges(db)
    }
}

internal import GRDB

/// Writes the first sighting (``RecordSightings``) of each record a capture stores, through
/// statements bound in place: one for a record stored alone, one for the rows a many-row insert
/// just numbered, without reading them back.
struct FirstSightings {
    private let db: Database
    private let one: SQLiteBinding
    private let range: SQLiteBinding

    init(_ db: Database, captureID: Int64) throws {
        self.db = db
        one = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: "INSERT INTO recordSighting (recordId, lastSeenCapture) VALUES (?2, ?1)"))
        range = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    WITH RECURSIVE stored(id) AS (SELECT ?2 UNION ALL SELECT id + 1 FROM stored WHERE id < ?3)
                    INSERT INTO recordSighting (recordId, lastSeenCapture) SELECT id, ?1 FROM stored
                    """))
        for statement in [one, range] { statement.bind(1, captureID) }
    }

    /// The record just stored as `recordID`.
    func write(_ recordID: Int64) throws {
        one.bind(2, recordID)
        _ = try one.stepCountingChanges(db)
    }

    /// The records just stored as `ids`.
    func write(_ ids: ClosedRange<Int64>) throws {
        range.bind(2, ids.lowerBound)
        range.bind(3, ids.upperBound)
        _ = try range.stepCountingChanges(db)
    }
}

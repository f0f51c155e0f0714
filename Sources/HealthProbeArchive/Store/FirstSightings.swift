internal import GRDB

/// Writes the first sighting (``RecordSightings``) of each record a capture stores, through
/// statements bound in place: one for a record stored alone, one for the rows a many-row insert
/// just numbered, without reading them back.
struct FirstSightings {
    private let db: Database
    private let one: SQLiteBinding
    private let range: SQLiteBinding

    init(_ db: Database, captureID: Int64, verifiedAt: Double) throws {
        self.db = db
        one = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: "INSERT INTO recordSighting (recordId, lastSeenCapture, lastVerifiedAt) VALUES (?3, ?1, ?2)"))
        range = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    WITH RECURSIVE stored(id) AS (SELECT ?3 UNION ALL SELECT id + 1 FROM stored WHERE id < ?4)
                    INSERT INTO recordSighting (recordId, lastSeenCapture, lastVerifiedAt) SELECT id, ?1, ?2 FROM stored
                    """))
        for statement in [one, range] {
            statement.bind(1, captureID)
            statement.bind(2, verifiedAt)
        }
    }

    /// The record just stored as `recordID`.
    func write(_ recordID: Int64) throws {
        one.bind(3, recordID)
        _ = try one.stepCountingChanges(db)
    }

    /// The records just stored as `ids`.
    func write(_ ids: ClosedRange<Int64>) throws {
        range.bind(3, ids.lowerBound)
        range.bind(4, ids.upperBound)
        _ = try range.stepCountingChanges(db)
    }
}

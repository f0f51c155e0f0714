import Foundation
internal import GRDB

/// Marks records seen by id — a backup's samples met by UUID or by content — binding a UUID where
/// one is given: cached statements bound in place, a million times on a second backup.
/// (`UPDATE … RETURNING` would count each record's totals as it goes, but SQLite runs it through
/// a temporary table on every execution: more than half a check's time. One scan after is less.)
///
/// The sighting is written to `recordSighting`; the record's own row only when it takes a UUID
/// it did not hold, so a second backup of the same samples rewrites no record.
final class SeenMarker {
    private let db: Database
    private let sighting: SQLiteBinding
    private let uuid: SQLiteBinding
    private(set) var marked = 0

    init(_ writing: CaptureWrite) throws {
        db = writing.db
        sighting = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    UPDATE recordSighting SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1
                    WHERE recordId = ?2 AND lastSeenCapture <> ?1
                    """))
        sighting.bind(1, writing.captureID)
        uuid = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: "UPDATE record SET sampleUUID = ?1 WHERE id = ?2 AND sampleUUID IS NOT ?1"))
    }

    func mark(_ recordID: Int64, uuid sampleUUID: UUID?) throws {
        sighting.bind(2, recordID)
        let seen = try sighting.stepCountingChanges(db)
        marked += seen
        guard seen > 0, let sampleUUID else { return }
        withUnsafeBytes(of: sampleUUID.uuid) { uuid.bindBlob(1, copying: $0) }
        uuid.bind(2, recordID)
        _ = try uuid.stepCountingChanges(db)
    }
}

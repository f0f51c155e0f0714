import Foundation
internal import GRDB

/// Marks records seen by id — a backup's samples met by UUID or by content — binding a UUID where
/// one is given: one cached statement bound in place, a million times on a second backup.
/// (`UPDATE … RETURNING` would count each record's totals as it goes, but SQLite runs it through
/// a temporary table on every execution: more than half a check's time. One scan after is less.)
final class SeenMarker {
    private let db: Database
    private let binding: SQLiteBinding
    private(set) var marked = 0

    init(_ writing: CaptureWrite) throws {
        db = writing.db
        binding = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2,
                        sampleUUID = IFNULL(?3, sampleUUID)
                    WHERE id = ?4 AND lastSeenCapture <> ?1
                    """))
        binding.bind(1, writing.captureID)
        binding.bind(2, writing.verifiedAt)
    }

    func mark(_ recordID: Int64, uuid: UUID?) throws {
        if let uuid {
            withUnsafeBytes(of: uuid.uuid) { binding.bindBlob(3, copying: $0) }
        } else {
            binding.bindNull(3)
        }
        binding.bind(4, recordID)
        marked += try binding.stepCountingChanges(db)
    }
}

import Foundation
import GRDB

/// How an export's or a backup's check begins, in its transaction: the capture's row, running,
/// compared with the latest export or backup, and the two audit entries that land with it or not
/// at all (a refused input leaves only its own).
enum SnapshotCapture {
    /// Returns the new capture's id and the one it is compared with; `input` names the kind of
    /// input for the audit trail ("an export", "a Health database").
    static func begin(
        _ db: Database, origin: CaptureOrigin, inputName: String, startedAt: Date, input: String
    ) throws -> (id: Int64, previous: Int64?) {
        let previous = try ArchiveStore.latestSnapshotCaptureID(db)
        try db.execute(
            sql: """
                INSERT INTO capture (origin, scope, status, inputName, startedAt, previousCaptureId)
                VALUES (?, \(CaptureScope.full.sqlLiteral), \(CaptureStatus.running.sqlLiteral), ?, ?, ?)
                """,
            arguments: [origin, inputName, startedAt.timeIntervalSince1970, previous])
        let id = db.lastInsertedRowID
        try AuditLog.append(db, event: .archiveOpened, message: "archive opened to check \(input)")
        try AuditLog.append(
            db, event: .captureStarted, captureID: id,
            message: "capture \(id) started" + (origin == .backup ? " from \(input)" : "")
                + (previous.map { ", compared with capture \($0)" } ?? ", the first"))
        return (id, previous)
    }
}

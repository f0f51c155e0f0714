import Foundation
internal import GRDB

/// How a capture begins, one way for exports, backups and the live path: its row, running,
/// with the capture it is compared with, and the trail's entry — in the caller's transaction.
struct CaptureStart {
    var origin: CaptureOrigin
    var scope: CaptureScope
    var inputName: String
    var startedAt = Date()
    /// The capture's date when it is known at the start (the live path's clock).
    var exportDate: Double?
    var previous: Int64?
    /// What follows "capture N started" in the trail.
    var auditDetail: String

    /// Inserts the capture and notes it; returns its id.
    func insert(_ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO capture (origin, scope, status, inputName, exportDate, startedAt, previousCaptureId)
                VALUES (?, ?, \(CaptureStatus.running.sqlLiteral), ?, ?, ?, ?)
                """,
            arguments: [
                origin.rawValue, scope.rawValue, inputName, exportDate, startedAt.timeIntervalSince1970, previous,
            ])
        let id = db.lastInsertedRowID
        try AuditLog.append(db, event: .captureStarted, captureID: id, message: "capture \(id) started\(auditDetail)")
        return id
    }
}

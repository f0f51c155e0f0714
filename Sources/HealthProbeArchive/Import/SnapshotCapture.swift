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
        try AuditLog.append(db, event: .archiveOpened, message: "archive opened to check \(input)")
        let id = try CaptureStart(
            origin: origin, scope: .full, inputName: inputName, startedAt: startedAt, previous: previous,
            auditDetail: (origin == .backup ? " from \(input)" : "")
                + (previous.map { ", compared with capture \($0)" } ?? ", the first")
        ).insert(db)
        return (id, previous)
    }
}

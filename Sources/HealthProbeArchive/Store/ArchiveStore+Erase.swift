import Foundation
internal import GRDB

extension ArchiveStore {
    /// Deletes all audit data — every capture, record, anomaly, audit entry, context event and
    /// the live monitor's anchors — keeping only the settings, then rewrites the file so that
    /// nothing deleted lingers in its free pages. One audit entry says when it happened.
    /// Destructive: the screens and the command line ask first.
    public func deleteAllAuditData() throws {
        try write { db in
            for table in [
                "anomalyRecord", "anomaly", "routeFile", "recordAbsence", "exportRun", "correlationMember",
                "referencedFile", "strayFile", "fileSource", "fileContent", "record",
                "typeDayBin", "typeSnapshot",
                "anchor", "capture", "device", "contextChange", "auditEntry",
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try db.execute(
                sql: "DELETE FROM setting WHERE key NOT LIKE ?", arguments: [MonitoringSettings.keyPrefix + "%"])
            try AuditLog.append(db, event: .auditDataDeleted, message: "all audit data deleted at the user's request")
        }
        try writer.vacuum()
        if let pool = writer as? DatabasePool {
            try pool.writeWithoutTransaction { db in
                _ = try db.checkpoint(.truncate)
            }
        }
    }
}

internal import GRDB

/// CaptureOffsets's part of the archive's schema (docs/schema.sql holds the whole).
extension CaptureOffsets {
    /// v18: the column; captures checked before it keep their one offset.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18 export offset spans") { db in
            try db.execute(sql: "ALTER TABLE capture ADD COLUMN exportOffsetSpans TEXT")
        }
    }
}

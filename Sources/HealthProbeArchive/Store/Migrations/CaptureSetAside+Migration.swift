internal import GRDB

/// CaptureSetAside's part of the archive's schema (docs/schema.sql holds the whole).
extension CaptureSetAside {
    /// v20: the capture's and the anomaly's marks, and the changes kept to undo.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20 captures set aside") { db in
            try db.execute(
                sql: """
                    ALTER TABLE capture ADD COLUMN setAsideAt REAL;
                    ALTER TABLE capture ADD COLUMN setAsideReason TEXT;
                    ALTER TABLE anomaly ADD COLUMN withdrawnAt REAL;
                    ALTER TABLE anomaly ADD COLUMN withdrawnReason TEXT;
                    CREATE TABLE setAsideChange (
                        captureId INTEGER NOT NULL REFERENCES capture(id),
                        change TEXT NOT NULL,
                        recordId INTEGER NOT NULL REFERENCES record(id),
                        occurrence INTEGER,
                        lastSeenCapture INTEGER,
                        goneCapture INTEGER,
                        goneReason TEXT,
                        PRIMARY KEY (captureId, change, recordId)
                    ) WITHOUT ROWID;
                    """)
        }
    }
}

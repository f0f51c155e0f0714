internal import GRDB

/// RestoredRecords' part of the archive's schema (docs/schema.sql holds the whole).
extension RestoredRecords {
    /// v22: which sample HealthProbe wrote back for which vanished record, seen in which capture;
    /// each loss's and each capture's count of them.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v22 restored records") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordRestore (
                        restoredRecordId INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
                        recordId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE
                    );
                    CREATE INDEX recordRestore_record ON recordRestore(recordId);
                    CREATE INDEX recordRestore_capture ON recordRestore(captureId);
                    ALTER TABLE anomaly ADD COLUMN restoredCount INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE anomaly ADD COLUMN restoredCapture INTEGER;
                    ALTER TABLE anomaly ADD COLUMN restoredAt REAL;
                    ALTER TABLE capture ADD COLUMN restored INTEGER NOT NULL DEFAULT 0;
                    """)
        }
    }
}

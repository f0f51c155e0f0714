internal import GRDB

extension ArchiveStore {
    /// v3: the live path's anchors (one per sample type), the context changes recorded for
    /// correlation, and an index to find a record by its HealthKit UUID when HealthKit reports
    /// it deleted.
    static func registerLivePath(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3 live path") { db in
            try db.execute(
                sql: """
                    CREATE TABLE anchor (
                        origin TEXT NOT NULL,
                        sampleType TEXT NOT NULL,
                        value BLOB NOT NULL,
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        PRIMARY KEY (origin, sampleType)
                    ) WITHOUT ROWID;
                    CREATE TABLE contextChange (
                        id INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        kind TEXT NOT NULL,
                        detail TEXT NOT NULL
                    );
                    CREATE INDEX record_healthKitUUID ON record(healthKitUUID) WHERE healthKitUUID IS NOT NULL;
                    """)
        }
    }
}

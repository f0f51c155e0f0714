internal import GRDB

extension ArchiveStore {
    /// v7: where each graph destination stands. `graphSync` holds, per destination, the capture
    /// and the last record id its graph reflects, the last anomaly sent and those resolved, the
    /// time zone its days were cut in, and when; `graphDay` the local days (days since
    /// 1970-01-01) the destination holds data for, which the `NEXT_DAY` chain links. Both move
    /// only after the destination has committed.
    static func registerGraphSync(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7 graph sync") { db in
            try db.execute(
                sql: """
                    CREATE TABLE graphSync (
                        destination TEXT PRIMARY KEY,
                        captureId INTEGER NOT NULL,
                        recordCeiling INTEGER NOT NULL,
                        anomalyCeiling INTEGER NOT NULL,
                        resolvedAnomalies TEXT NOT NULL,
                        timeZone TEXT NOT NULL,
                        syncedAt REAL NOT NULL,
                        syncs INTEGER NOT NULL
                    );
                    CREATE TABLE graphDay (
                        destination TEXT NOT NULL REFERENCES graphSync(destination) ON DELETE CASCADE,
                        day INTEGER NOT NULL,
                        PRIMARY KEY (destination, day)
                    ) WITHOUT ROWID;
                    """)
        }
    }
}

extension ArchiveStore {
    /// v9: records by start date, which a graph sync reads a month of days at a time by. Made by
    /// the migrator, not by the first sync as before, so that no command creates schema of its
    /// own and `graph status` and `graph sync --dry-run` only read (an archive that synced
    /// already has it).
    static func registerStartDateIndex(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9 records by start date") { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS record_startDate ON record(startDate)")
        }
    }
}

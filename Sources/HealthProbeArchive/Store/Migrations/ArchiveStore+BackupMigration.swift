internal import GRDB

extension ArchiveStore {
    /// v13: what a backup's Health database adds. A record keeps the HealthKit UUID a backup gave
    /// its sample (`sampleUUID`), so that the next backup finds it by that alone; a capture counts
    /// the records it found deleted in Health (tombstones) and those it could not compare because
    /// a backup does not hold their kind (activity summaries, correlations, …). The UUIDs are not
    /// indexed: a backup's check reads them all once into memory (``BackupSampleMatcher``), and
    /// an index would take a million random inserts on a first backup — most of its time.
    static func registerBackupSamples(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13 backup samples") { db in
            try db.execute(
                sql: """
                    ALTER TABLE record ADD COLUMN sampleUUID BLOB;
                    ALTER TABLE capture ADD COLUMN deletedInHealth INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE capture ADD COLUMN notCompared INTEGER NOT NULL DEFAULT 0;
                    """)
        }
    }
}

internal import GRDB

/// AnomalyRecovery's part of the archive's schema (docs/schema.sql holds the whole).
extension AnomalyRecovery {
    /// v16: each anomaly's recovery.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16 recovered anomalies") { db in
            try db.execute(
                sql: """
                    ALTER TABLE anomaly ADD COLUMN recoveredCount INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE anomaly ADD COLUMN recoveredCapture INTEGER;
                    ALTER TABLE anomaly ADD COLUMN recoveredAt REAL;
                    """)
        }
    }
}

internal import GRDB

/// StrayFiles's part of the archive's schema (docs/schema.sql holds the whole).
extension StrayFiles {
    /// v19: the table.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19 stray files") { db in
            try db.execute(
                sql: """
                    CREATE TABLE strayFile (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        path TEXT NOT NULL,
                        digest TEXT REFERENCES fileContent(digest),
                        items INTEGER,
                        problem TEXT,
                        PRIMARY KEY (captureId, kind, path)
                    ) WITHOUT ROWID;
                    """)
        }
    }
}

internal import GRDB

/// SourceArrival's part of the archive's schema (docs/schema.sql holds the whole).
extension SourceArrival {
    /// v15: the arrivals table, filled from the records already held.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15 source arrivals") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sourceArrival (
                        type TEXT NOT NULL,
                        sourceName TEXT NOT NULL,
                        firstWritten REAL NOT NULL,
                        PRIMARY KEY (type, sourceName)
                    ) WITHOUT ROWID;
                    INSERT INTO sourceArrival (type, sourceName, firstWritten)
                    SELECT type, COALESCE(sourceName, ''), MIN(COALESCE(creationDate, startDate)) FROM record
                    WHERE COALESCE(creationDate, startDate) IS NOT NULL
                    GROUP BY type, COALESCE(sourceName, '');
                    """)
        }
    }

    /// v17: whether a source has written any record of the type entered by hand, so that the day
    /// figures read the mark from the records of those sources alone (a year of a watch's heart
    /// rate has no such record, and reading each one's metadata doubled the time of a year's
    /// figures). Filled once from the records already held.
    static func registerHandEntries(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17 hand-entered sources") { db in
            try db.execute(
                sql: """
                    ALTER TABLE sourceArrival ADD COLUMN enteredByHand INTEGER NOT NULL DEFAULT 0;
                    UPDATE sourceArrival SET enteredByHand = 1 WHERE (type, sourceName) IN (
                        SELECT type, COALESCE(sourceName, '') FROM record
                        WHERE instr(metadata, '\(handEntryMark)') > 0);
                    """)
        }
    }
}

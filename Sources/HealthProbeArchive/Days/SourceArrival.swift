import GRDB

/// When each source began writing each type, as far as the archive can tell: the earliest
/// creation date (else start) of the source's records of the type. Health's order puts the app
/// added last first among other apps and devices; an export does not say when an app was added,
/// and a source's first written sample is the closest fact it holds (an app that backfills years
/// of history on connection still writes them on that day, which the creation date records).
enum SourceArrival {
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

    /// Keeps the earliest of what is known and what a capture brought.
    static func record(_ db: Database, type: String, firstWritten: [String: Double]) throws {
        guard !firstWritten.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO sourceArrival (type, sourceName, firstWritten) VALUES (?, ?, ?)
                ON CONFLICT (type, sourceName) DO UPDATE SET firstWritten = min(firstWritten, excluded.firstWritten)
                """)
        for (source, instant) in firstWritten { try statement.execute(arguments: [type, source, instant]) }
    }

    /// The arrivals of every source of `types` (of every type when nil), by type and source.
    static func read(_ db: Database, types: [String]?) throws -> [String: [String: Double]] {
        var result: [String: [String: Double]] = [:]
        let rows: RowCursor
        if let types {
            guard !types.isEmpty else { return [:] }
            rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT type, sourceName, firstWritten FROM sourceArrival
                    WHERE type IN (\(databaseQuestionMarks(count: types.count)))
                    """, arguments: StatementArguments(types))
        } else {
            rows = try Row.fetchCursor(db, sql: "SELECT type, sourceName, firstWritten FROM sourceArrival")
        }
        while let row = try rows.next() { result[row[0], default: [:]][row[1]] = row[2] }
        return result
    }
}

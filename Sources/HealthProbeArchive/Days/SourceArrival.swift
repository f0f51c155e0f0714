import Foundation
internal import GRDB

/// When each source began writing each type, as far as the archive can tell: the earliest
/// creation date (else start) of the source's records of the type. Health's order puts the app
/// added last first among other apps and devices; an export does not say when an app was added,
/// and a source's first written sample is the closest fact it holds (an app that backfills years
/// of history on connection still writes them on that day, which the creation date records).
enum SourceArrival {
    /// How a record entered by hand in the Health app is marked in its canonical metadata.
    static let handEntryMark = #"["HKWasUserEntered","1"]"#
    private static let handEntryBytes = Array(handEntryMark.utf8)

    /// Whether canonical metadata (its UTF-8 bytes) holds the hand-entry mark.
    static func marksHandEntry(_ metadata: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let metadata, metadata.count >= handEntryBytes.count, let base = metadata.baseAddress else {
            return false
        }
        return handEntryBytes.withUnsafeBufferPointer { mark in
            for index in 0...(metadata.count - mark.count) where base[index] == mark[0] {
                if memcmp(base + index, mark.baseAddress!, mark.count) == 0 { return true }
            }
            return false
        }
    }

    /// Every arrival read anew from the records, but those only a capture set aside holds: the
    /// sources of someone else's export are neither ordered nor offered (``CaptureSetAside``).
    static func rebuild(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM sourceArrival;
                INSERT INTO sourceArrival (type, sourceName, firstWritten, enteredByHand)
                SELECT type, COALESCE(sourceName, ''), MIN(COALESCE(creationDate, startDate)),
                    IFNULL(MAX(instr(metadata, '\(handEntryMark)') > 0), 0)
                FROM record
                WHERE COALESCE(creationDate, startDate) IS NOT NULL AND goneReason IS NOT \(GoneReason.setAside.sqlLiteral)
                GROUP BY type, COALESCE(sourceName, '');
                """)
    }

    /// Keeps the earliest of what is known and what a capture brought.
    /// A source once marked as entering by hand stays marked.
    static func record(
        _ db: Database, type: String, firstWritten: [String: Double], enteredByHand: Set<String>
    ) throws {
        guard !firstWritten.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO sourceArrival (type, sourceName, firstWritten, enteredByHand) VALUES (?, ?, ?, ?)
                ON CONFLICT (type, sourceName) DO UPDATE SET firstWritten = min(firstWritten, excluded.firstWritten),
                    enteredByHand = max(enteredByHand, excluded.enteredByHand)
                """)
        for (source, instant) in firstWritten {
            try statement.execute(arguments: [type, source, instant, enteredByHand.contains(source)])
        }
    }

    /// Each type's sources by the names the day figures give them, sorted.
    static func names(_ db: Database) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT type, sourceName, enteredByHand FROM sourceArrival")
        while let row = try rows.next() {
            let name: String = row[1]
            result[row[0], default: []].append(name)
            if row[2] as Bool { result[row[0], default: []].append(SourceOrder.handEnteredName(name)) }
        }
        return result.mapValues { $0.sorted() }
    }

    /// The sources of `types` that have written a record entered by hand.
    static func handEnteringSources(_ db: Database, types: [String]) throws -> Set<String> {
        guard !types.isEmpty else { return [] }
        return try Set(
            String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT sourceName FROM sourceArrival
                    WHERE enteredByHand AND type IN (\(databaseQuestionMarks(count: types.count)))
                    """, arguments: StatementArguments(types)))
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

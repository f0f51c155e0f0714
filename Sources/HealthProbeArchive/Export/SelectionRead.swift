import Foundation
internal import GRDB

/// The records an export selects, as one read transaction of the archive shows them: a check running
/// meanwhile changes nothing read through it. Lives only inside ``ArchiveStore/readSelection(_:timeZone:_:)``.
package struct SelectionRead {
    package let resolved: ResolvedSelection
    /// The devices, files and dates every record of the export shares.
    package var context: ExportContext
    private let db: Database

    fileprivate init(_ selection: ExportSelection, timeZone: TimeZone, _ db: Database) throws {
        resolved = try ResolvedSelection(selection, db)
        context = try ExportContext(resolved, timeZone: timeZone, db)
        self.db = db
    }

    /// How many records of each type the selection holds.
    package func expectedCounts() throws -> [String: Int] {
        try resolved.expectedCounts(db)
    }

    /// The selection's records in `order`, a row at a time.
    package func records(_ order: ResolvedSelection.Order) throws -> ArchivedRecordCursor {
        let query = resolved.query(order)
        return try ArchivedRecordCursor(db, sql: query.sql, arguments: query.arguments)
    }
}

extension ArchiveStore {
    /// Reads what `selection` chooses in one read transaction of the archive.
    package func readSelection<T>(
        _ selection: ExportSelection, timeZone: TimeZone, _ body: (inout SelectionRead) throws -> T
    ) throws -> T {
        try read { db in
            // The text formats' ORDER BY sorts a million rows: on two cores, in two threads.
            try db.execute(sql: "PRAGMA threads = 2")
            var read = try SelectionRead(selection, timeZone: timeZone, db)
            return try body(&read)
        }
    }
}

internal import GRDB
internal import GRDBSQLite

/// Steps through a query's rows with direct `sqlite3_column_*` access: an export or a graph sync
/// reads every row of a million, and GRDB's `Row` would copy each into Swift values first. A
/// row's text and blobs are valid only until the next step. (Its accessors are not inlinable into
/// the exports' writers, which would make SQLite's C interface part of the archive's
/// face: a call a column costs some 30 ms over a million rows of an export of seconds.)
package final class SQLiteRowCursor {
    private let statement: Statement
    private let db: Database
    private var handle: SQLiteStatement { statement.sqliteStatement }

    init(_ db: Database, sql: String, arguments: StatementArguments = []) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
    }

    /// Steps through `statement` (a cached one, run once per argument set) from its start.
    init(_ db: Database, statement: Statement, arguments: StatementArguments) throws {
        self.db = db
        self.statement = statement
        try statement.setArguments(arguments)
    }

    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func integer(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    package func double(_ column: Int32) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(handle, column)
    }

    /// The column's bytes in place (text or blob); nil for NULL.
    package func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A 16-byte blob as the fingerprint it stores (big-endian, ``Fingerprint``); zero when the
    /// column holds something else.
    func fingerprint(_ column: Int32) -> Fingerprint {
        guard let bytes = bytes(column), bytes.count == 16 else { return Fingerprint(high: 0, low: 0) }
        let raw = UnsafeRawBufferPointer(bytes)
        return Fingerprint(
            high: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            low: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    package func string(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }
}

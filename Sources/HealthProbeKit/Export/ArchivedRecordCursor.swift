import AppleHealthExport
import GRDB
import GRDBSQLite

/// Steps through an export's rows with direct `sqlite3_column_*` access: an export reads every
/// column of a million rows, and GRDB's `Row` would copy each one into a Swift value first.
/// A row's text is valid only until the next step.
final class ArchivedRecordCursor {
    private let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }
    private let db: Database

    enum Column: Int32 {
        case id, kind, type, sourceName, sourceVersion, deviceId, unit, value, numericValue, creationDate
        case startDate, endDate, metadata, details, healthKitUUID, firstSeenCapture, lastSeen, goneAt, goneReason
    }

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
    }

    /// Moves to the next row; false at the end.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    func isNull(_ column: Column) -> Bool {
        sqlite3_column_type(handle, column.rawValue) == SQLITE_NULL
    }

    func integer(_ column: Column) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column.rawValue)
    }

    func double(_ column: Column) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(handle, column.rawValue)
    }

    /// The column's UTF-8 bytes in place; nil for NULL.
    func text(_ column: Column) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(handle, column.rawValue) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column.rawValue)))
    }

    func string(_ column: Column) -> String? {
        text(column).map { String(decoding: $0, as: UTF8.self) }
    }
}

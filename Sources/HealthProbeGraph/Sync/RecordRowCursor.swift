import GRDB
import GRDBSQLite

/// Steps through a query's rows with direct column access: a first sync reads a million rows,
/// and copying each into a GRDB `Row` would cost more than the rest of the sync. A row's text
/// and blobs are valid only until the next step.
final class RecordRowCursor {
    private let statement: Statement
    private let db: Database
    private var handle: SQLiteStatement { statement.sqliteStatement }

    init(_ db: Database, sql: String, arguments: StatementArguments = []) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
    }

    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(handle, column) }

    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    /// The column's bytes in place (text or blob); nil for NULL.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    func string(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A record's 16-byte fingerprint as a hashable value.
struct FingerprintKey: Hashable {
    let high: UInt64
    let low: UInt64

    init?(_ bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes, bytes.count >= 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[index + 8])
        }
        self.high = high
        self.low = low
    }

    /// Lowercase hex, a workout's `uid` where it has no HealthKit UUID.
    var hex: String {
        let text = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        return text
    }
}

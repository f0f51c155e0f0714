import GRDB
import GRDBSQLite

/// Direct `sqlite3_bind_*` access to a GRDB cached statement, for the one hot path that writes
/// millions of rows; everything else goes through GRDB's typed API.
struct SQLiteBinding {
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }

    func bind(_ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
        }
    }

    func bind(_ index: Int32, _ number: Double?) {
        guard let number else {
            sqlite3_bind_null(handle, index)
            return
        }
        sqlite3_bind_double(handle, index, number)
    }

    func bind(_ index: Int32, _ number: Int64?) {
        guard let number else {
            sqlite3_bind_null(handle, index)
            return
        }
        sqlite3_bind_int64(handle, index, number)
    }

    func bind(_ index: Int32, _ fingerprint: Fingerprint) {
        var bigEndian = (fingerprint.high.bigEndian, fingerprint.low.bigEndian)
        withUnsafeBytes(of: &bigEndian) { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, 16, Self.transient)
        }
    }

    /// Steps once: returns the first column of a returned row as an optional integer wrapped in
    /// `.row`, or `.done` when the statement returned nothing. Resets the statement.
    func stepReturningFirstColumn(_ db: Database) throws -> StepResult {
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            let value: Int64? = sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
            return .row(value)
        case SQLITE_DONE:
            return .done
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    enum StepResult: Equatable {
        case row(Int64?)
        case done
    }
}

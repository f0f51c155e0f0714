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

    /// Runs the statement; returns whether it inserted or changed a row. Resets the statement.
    func stepChangingRow(_ db: Database) throws -> Bool {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }
}

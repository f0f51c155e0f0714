import GRDB
import GRDBSQLite

/// Direct `sqlite3_bind_*` access to a GRDB cached statement, for the one hot path that writes
/// millions of rows; everything else goes through GRDB's typed API.
///
/// Text and blobs are bound in place from a ``PreparedBatch``'s bytes, without a copy
/// (`SQLITE_STATIC`): the caller keeps those bytes alive until the statement has stepped.
struct SQLiteBinding {
    private static let staticDestructor = unsafeBitCast(OpaquePointer(bitPattern: 0), to: sqlite3_destructor_type.self)

    let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }

    func bindText(_ index: Int32, _ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer) {
        guard !span.isNull else {
            sqlite3_bind_null(handle, index)
            return
        }
        _ = sqlite3_bind_text(
            handle, index, (bytes.baseAddress! + Int(span.offset)).assumingMemoryBound(to: CChar.self), span.length,
            Self.staticDestructor)
    }

    func bindBlob(_ index: Int32, _ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer) {
        guard !span.isNull else {
            sqlite3_bind_null(handle, index)
            return
        }
        _ = sqlite3_bind_blob(handle, index, bytes.baseAddress! + Int(span.offset), span.length, Self.staticDestructor)
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

    /// Runs the statement; returns how many rows it inserted or changed. Resets the statement,
    /// keeping its bindings.
    func stepCountingChanges(_ db: Database) throws -> Int {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }
}

internal import GRDB
internal import GRDBSQLite

/// Direct `sqlite3_bind_*` access to a GRDB cached statement, for the one hot path that writes
/// millions of rows; everything else goes through GRDB's typed API.
///
/// Text and blobs are bound in place from a ``PreparedBatch``'s bytes, without a copy
/// (`SQLITE_STATIC`): the caller keeps those bytes alive until the statement has stepped.
struct SQLiteBinding {
    private static let staticDestructor = unsafeBitCast(OpaquePointer(bitPattern: 0), to: sqlite3_destructor_type.self)
    private static let transientDestructor = unsafeBitCast(
        OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }

    init(statement: Statement) {
        self.statement = statement
    }

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

    /// Bytes SQLite copies (`SQLITE_TRANSIENT`): for a value that does not outlive the call.
    func bindBlob(_ index: Int32, copying bytes: UnsafeRawBufferPointer) {
        _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transientDestructor)
    }

    /// Text SQLite copies (`SQLITE_TRANSIENT`); NULL for nil.
    func bindText(_ index: Int32, copying text: String?) {
        guard var text else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transientDestructor)
            }
        }
    }

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
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

    /// Runs a query of one integer; returns it, nil when there is no row. Resets the statement.
    func stepReturningInteger(_ db: Database) throws -> Int64? {
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return sqlite3_column_int64(handle, 0)
        case SQLITE_DONE: return nil
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }
}

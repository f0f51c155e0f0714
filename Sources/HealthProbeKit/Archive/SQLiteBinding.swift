import GRDB
import GRDBSQLite

/// Direct `sqlite3_bind_*` access to a GRDB cached statement, for the one hot path that writes
/// millions of rows; everything else goes through GRDB's typed API.
///
/// Text and blobs are copied into one arena that lives as long as the binding and bound
/// without a copy by SQLite (`SQLITE_STATIC`): no allocation per value. Call ``reserve(_:)``
/// with the row's total size before binding its values, and step before the next row.
final class SQLiteBinding {
    private static let staticDestructor = unsafeBitCast(OpaquePointer(bitPattern: 0), to: sqlite3_destructor_type.self)

    let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }
    private var arena: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    init(statement: Statement) {
        self.statement = statement
        capacity = 1 << 16
        arena = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        arena.deallocate()
    }

    /// Makes room for a row of `bytes` of text and blobs; invalidates the previous row's values.
    func reserve(_ bytes: Int) {
        used = 0
        guard bytes > capacity else { return }
        arena.deallocate()
        capacity = bytes.nextPowerOfTwo
        arena = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    private func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let destination = arena + used
        if let base = bytes.baseAddress, !bytes.isEmpty { destination.copyMemory(from: base, byteCount: bytes.count) }
        used += bytes.count
        precondition(used <= capacity, "SQLiteBinding.reserve was given too small a size")
        return UnsafeRawPointer(destination)
    }

    func bind(_ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { bytes in
            let pointer = copy(UnsafeRawBufferPointer(bytes))
            _ = sqlite3_bind_text(
                handle, index, pointer.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.staticDestructor)
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
            _ = sqlite3_bind_blob(handle, index, copy(bytes), 16, Self.staticDestructor)
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

private extension Int {
    var nextPowerOfTwo: Int { 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}

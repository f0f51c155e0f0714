internal import GRDB

extension ArchiveStore {
    /// Runs `load` — one write transaction that fills an archive holding no records yet — with
    /// the archive in rollback-journal mode, then returns it to WAL.
    ///
    /// In WAL mode every page of a first import is written twice: into the WAL during the
    /// transaction, then into the database by the checkpoint after it (a 1M-record export writes
    /// about 300 MB each way). A rollback journal keeps only the original content of pages that
    /// existed before, and an empty archive has almost none: the new pages are written once, into
    /// the database, and a killed load is still rolled back on the next open, from the journal.
    /// `synchronous = FULL` meanwhile, since a rollback journal needs it to survive a power loss.
    ///
    /// Foreign keys are not enforced during the load: every reference it writes is one it has
    /// just made (a device id it looked up, a record it stored), and enforcement would make each
    /// many-row insert keep a statement journal — a copy of every page it touches — so that it
    /// could undo itself halfway (see `RowAppender`). Tests check the references afterwards.
    ///
    /// When the archive already holds records, is in memory, or is open elsewhere (switching
    /// journals needs the only connection), `load` simply runs in WAL mode.
    public func withBulkLoadJournal<T>(_ load: () throws -> T) throws -> T {
        guard let pool = writer as? DatabasePool,
            try pool.writeWithoutTransaction({ db in
                try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM record)")!
            })
        else { return try load() }
        // Idle reader connections would keep the journal mode from changing.
        pool.releaseMemory()
        let switched = try pool.writeWithoutTransaction { db -> Bool in
            do {
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")?.lowercased() == "delete" else {
                    return false
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return false
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            return true
        }
        guard switched else { return try load() }
        let loaded: T
        do {
            loaded = try load()
        } catch {
            try? Self.endBulkLoad(pool)
            throw error
        }
        try Self.endBulkLoad(pool)
        return loaded
    }

    /// Foreign keys and durability as every other write has them. Returning to WAL cannot fail
    /// but for another process holding the file at that moment; then the next open switches it
    /// (a `DatabasePool` always does), so the load that has committed is not reported as failed.
    private static func endBulkLoad(_ pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
    }
}

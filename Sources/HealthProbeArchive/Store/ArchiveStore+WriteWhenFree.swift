import Foundation
internal import GRDB
internal import GRDBSQLite

extension ArchiveStore {
    /// How long a write that is only worth doing now waits for another process's.
    static let whenFreeTimeout: TimeInterval = 0.25

    /// Runs `body` in a write transaction if the archive can be written within
    /// ``whenFreeTimeout``; throws ``ArchiveError/busy(path:)`` having changed nothing if not.
    ///
    /// For writes that keep a result already in the caller's hands (an integrity check's), which
    /// should not make the caller wait out a check another process is running.
    func writeWhenFree(_ body: (Database) throws -> Void) throws {
        do {
            try writer.writeWithoutTransaction { db in
                sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.whenFreeTimeout * 1000))
                defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(busyTimeout * 1000)) }
                try db.inTransaction(.immediate) {
                    try body(db)
                    return .commit
                }
            }
        } catch {
            throw translated(error)
        }
    }

    /// Stops the statements running on this archive's connections at once: each fails as
    /// interrupted and its transaction is rolled back. For a cancelled live check, whose
    /// background time is up; statements started later run normally.
    public func interruptStatements() {
        writer.interrupt()
    }

    /// Whether `error` is a statement stopped by ``interruptStatements()``.
    public static func isInterruption(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
    }
}

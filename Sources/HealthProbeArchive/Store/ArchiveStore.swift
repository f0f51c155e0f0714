import CSQLiteSettings
import Foundation
internal import GRDB

/// The local forensic archive: one SQLite file (WAL) holding every record HealthProbe has seen,
/// the captures it was seen in, and what the audit found.
///
/// Opening runs the append-only migrations, refuses a file that is not a HealthProbe archive or
/// that a newer HealthProbe wrote, and removes what an interrupted import left behind. Readers see
/// only complete captures.
public struct ArchiveStore: Sendable {
    /// `PRAGMA application_id` of HealthProbe archives ("HPRB").
    static let applicationID: Int32 = 0x4850_5242

    /// The connections. Only the archive runs SQL: every face goes through its typed methods.
    let writer: any DatabaseWriter
    /// The file, or nil for an in-memory archive.
    public let path: String?
    /// The path as messages name it.
    public var pathInMessages: String { path ?? "the in-memory archive" }
    /// How long a write waits for another process's.
    let busyTimeout: TimeInterval

    /// How long a command waits for another process's write before it gives up, by default.
    /// Writes other than a check's take milliseconds; a check holds the archive until it
    /// finishes (a first check even from readers), which this does not wait out.
    public static let defaultBusyTimeout: TimeInterval = 10

    /// Opens the archive at `path`, creating it (owner-only permissions) when absent — unless
    /// `creating` is false: then a missing archive is an error and nothing is written.
    ///
    /// The archive is shared: any number of processes read it while one writes (WAL). A write
    /// waits up to `busyTimeout` for another to end, then fails with ``ArchiveError/busy(path:)``
    /// having changed nothing. Every error SQLite reports comes out as an ``ArchiveError``.
    public static func open(
        at path: String, creating: Bool = true, busyTimeout: TimeInterval = defaultBusyTimeout
    ) throws -> ArchiveStore {
        if !creating && !FileManager.default.fileExists(atPath: path) { throw ArchiveError.missing(path: path) }
        Self.sqliteConfigured
        try prepareFile(at: path)
        do {
            let pool = try DatabasePool(
                path: path, configuration: configuration(busyTimeout: busyTimeout, readOnly: false))
            return try ArchiveStore(writer: pool, path: path, busyTimeout: busyTimeout)
        } catch {
            throw ArchiveError.from(error, path: path) ?? error
        }
    }

    /// Opens an existing archive for commands that only read it, through read-only connections:
    /// opening writes nothing (a writable open makes sure the write-ahead log exists with a
    /// small write of its own), and a write by mistake fails instead of changing the file. An
    /// archive that needs a migration, or holds what an interrupted check left, is opened
    /// writable once to set it right, as ``open(at:creating:busyTimeout:)`` does.
    public static func openForReading(
        at path: String, busyTimeout: TimeInterval = defaultBusyTimeout
    ) throws -> ArchiveStore {
        guard FileManager.default.fileExists(atPath: path) else { throw ArchiveError.missing(path: path) }
        Self.sqliteConfigured
        do {
            let pool = try DatabasePool(
                path: path, configuration: configuration(busyTimeout: busyTimeout, readOnly: true))
            let ready = try pool.read { db in
                try Self.inspect(db, migrator: Self.migrator) == .current && Self.interruptedCaptures(db).isEmpty
            }
            if ready { return ArchiveStore(readOnly: pool, path: path, busyTimeout: busyTimeout) }
            try pool.close()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
            // A first check killed mid-way (SIGKILL, power loss) left its rollback journal: only
            // a writable connection may roll it back, which puts the archive back as it was.
        } catch {
            throw ArchiveError.from(error, path: path) ?? error
        }
        return try open(at: path, creating: false, busyTimeout: busyTimeout)
    }

    /// This archive for writing: itself, or — opened for reading — the same file opened writable,
    /// for a command that reads first and writes only at the end if all went well (a graph sync
    /// records its state only after the destination committed; a refused one changes nothing).
    public func writable() throws -> ArchiveStore {
        guard isReadOnly, let path else { return self }
        return try Self.open(at: path, creating: false, busyTimeout: busyTimeout)
    }

    /// Opened by ``openForReading(at:busyTimeout:)``.
    var isReadOnly: Bool { (writer as? DatabasePool)?.configuration.readonly ?? false }

    private static func configuration(busyTimeout: TimeInterval, readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        if !readOnly {
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }

    /// An archive in memory, for tests and the demo.
    public static func inMemory() throws -> ArchiveStore {
        Self.sqliteConfigured
        return try ArchiveStore(writer: DatabaseQueue(), path: nil)
    }

    /// SQLite's process-wide settings, made once before its first connection: without memory
    /// statistics, which nothing here reads and which cost a global mutex on every allocation
    /// (an import's writer spent about 7 % of its time there). Too late once another part of
    /// the process has used SQLite; then nothing changes. The tests' injected faults
    /// (`HEALTHPROBE_TEST_FAULT`, see CSQLiteSettings) are installed here too, before the first
    /// connection.
    private static let sqliteConfigured: Void = {
        _ = healthprobe_sqlite_disable_memory_statistics()
        _ = healthprobe_sqlite_install_fault_injection()
    }()

    init(writer: any DatabaseWriter, path: String?, busyTimeout: TimeInterval = defaultBusyTimeout) throws {
        self.writer = writer
        self.path = path
        self.busyTimeout = busyTimeout
        let migrator = Self.migrator
        let state = try writer.read { db in try Self.inspect(db, migrator: migrator) }
        switch state {
        case .foreign: throw ArchiveError.notAnArchive(path: pathInMessages)
        case .newer(let unknown):
            throw ArchiveError.writtenByNewerVersion(path: pathInMessages, unknownMigrations: unknown)
        case .current: break
        case .empty, .needsMigration:
            // The file says it is an archive before the first migration, so that one failed
            // half-way (a full disk) leaves an archive the next open migrates on, not a file it
            // takes for someone else's.
            if state == .empty {
                try writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                }
            }
            try migrator.migrate(writer)
            try writer.write { db in
                try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                try AuditLog.append(
                    db, event: state == .empty ? .archiveCreated : .archiveMigrated,
                    message: state == .empty ? "archive created" : "archive migrated to the current schema")
            }
        }
        try removeInterruptedCaptures()
    }

    /// An archive already current, opened read-only: nothing to migrate or remove.
    private init(readOnly pool: DatabasePool, path: String, busyTimeout: TimeInterval) {
        self.writer = pool
        self.path = path
        self.busyTimeout = busyTimeout
    }

    private enum State: Equatable {
        case empty, foreign, newer([String]), needsMigration, current
    }

    private static func inspect(_ db: Database, migrator: DatabaseMigrator) throws -> State {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty { return .empty }
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard tables.contains("grdb_migrations") else { return .foreign }
        let applied = try migrator.appliedIdentifiers(db)
        let known = Set(migrator.migrations)
        // Before the application id was written first, a creation cut off between two migrations
        // left ours without it: every migration applied is one of ours, the first among them.
        let ownInterruptedCreation =
            application == 0 && applied.contains(migrator.migrations[0]) && applied.allSatisfy(known.contains)
        guard application == applicationID || ownInterruptedCreation else { return .foreign }
        let unknown = applied.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty { return .newer(unknown) }
        return applied.count == known.count ? .current : .needsMigration
    }

    /// Creates the file with owner-only permissions when it does not exist yet; an existing file
    /// is left to SQLite, which refuses one that is not a database (`SQLITE_NOTADB`).
    ///
    /// Never open the archive, its `-wal`, `-shm` or `-journal` any other way while this process
    /// may hold a connection to it. POSIX advisory locks belong to the process and the file, and
    /// closing *any* descriptor of the file drops *all* of the process's locks on it, SQLite's
    /// included: another process then takes itself for the archive's last user, checkpoints and
    /// deletes the write-ahead log under a running check, or rolls back a first check's journal
    /// while it is being written. An earlier version read the header through a `FileHandle` and
    /// asked the kernel to write an import back through a descriptor of its own; either corrupted
    /// archives under concurrent use (see "How To Corrupt An SQLite Database File", §2.2, on
    /// sqlite.org). `stat` (sizes) and `chmod` take no descriptor and are safe.
    ///
    /// The one descriptor here is of a file this call creates (`O_EXCL`): no connection, in this
    /// process or another, can hold a lock on a file that did not exist.
    private static func prepareFile(at path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            guard manager.isReadableFile(atPath: path) else {
                throw ArchiveError.cannotCreate(path: path, problem: "permission denied")
            }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !manager.fileExists(atPath: folder) {
            do {
                try manager.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ArchiveError.cannotCreate(path: path, problem: "the folder cannot be created")
            }
        }
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Another process created it a moment ago: it is theirs to fill, and SQLite's to open.
            if errno == EEXIST { return }
            throw ArchiveError.cannotCreate(path: path, problem: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    /// Deletes captures an interrupted import left `running`, with anything that refers to them.
    /// A live check cut off (`liveCheck`) stays: the next check resumes it.
    private func removeInterruptedCaptures() throws {
        let interrupted = try writer.read(Self.interruptedCaptures)
        guard !interrupted.isEmpty else { return }
        try writer.write { db in
            for capture in interrupted {
                try Self.undoCapture(capture, db)
                try AuditLog.append(
                    db, event: .captureAbandoned, captureID: capture,
                    message: "removed capture \(capture), left incomplete by an interrupted run")
            }
        }
    }

    /// Captures left `running` by a run that ended without finishing them, but a live check's.
    private static func interruptedCaptures(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM capture
                WHERE status = \(CaptureStatus.running.sqlLiteral) AND id NOT IN (SELECT captureId FROM liveCheck)
                """)
    }

    /// Removes a capture that did not complete, with everything it changed: the records it
    /// first saw, its marks on the others, its anomalies.
    static func undoCapture(_ capture: Int64, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM anomalyRecord WHERE anomalyId IN (SELECT id FROM anomaly WHERE captureId = ?)",
            arguments: [capture])
        try db.execute(sql: "DELETE FROM anomaly WHERE captureId = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM routeFile WHERE captureId = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM referencedFile WHERE captureId = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM strayFile WHERE captureId = ?", arguments: [capture])
        // Content no other capture holds goes, and with it which route bytes it was read from.
        try db.execute(
            sql: """
                DELETE FROM fileContent
                WHERE digest NOT IN (SELECT digest FROM referencedFile WHERE digest IS NOT NULL)
                    AND digest NOT IN (SELECT digest FROM strayFile WHERE digest IS NOT NULL)
                """)
        try db.execute(
            sql:
                "DELETE FROM correlationMember WHERE correlationId IN (SELECT id FROM record WHERE firstSeenCapture = ?)",
            arguments: [capture])
        try db.execute(
            sql: "DELETE FROM recordSighting WHERE recordId IN (SELECT id FROM record WHERE firstSeenCapture = ?)",
            arguments: [capture])
        try db.execute(sql: "DELETE FROM record WHERE firstSeenCapture = ?", arguments: [capture])
        // Records this capture saw return are gone again, as they were before it.
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = absence.goneCapture, goneReason = absence.goneReason
                FROM (SELECT recordId, goneCapture, goneReason FROM recordAbsence WHERE returnCapture = ?) AS absence
                WHERE record.id = absence.recordId
                """, arguments: [capture])
        try db.execute(sql: "DELETE FROM recordAbsence WHERE returnCapture = ?", arguments: [capture])
        try db.execute(sql: RecordSightings.stepBack(where: "sighting.lastSeenCapture = ?"), arguments: [capture])
        try db.execute(
            sql: "UPDATE record SET goneCapture = NULL, goneReason = NULL WHERE goneCapture = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM capture WHERE id = ?", arguments: [capture])
    }
}

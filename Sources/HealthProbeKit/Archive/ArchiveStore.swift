import CSQLiteSettings
import Foundation
import GRDB

/// The local forensic archive: one SQLite file (WAL) holding every record HealthProbe has seen,
/// the captures it was seen in, and what the audit found.
///
/// Opening runs the append-only migrations, refuses a file that is not a HealthProbe archive or
/// that a newer HealthProbe wrote, and removes what an interrupted import left behind. Readers see
/// only complete captures.
public struct ArchiveStore: Sendable {
    /// `PRAGMA application_id` of HealthProbe archives ("HPRB").
    static let applicationID: Int32 = 0x4850_5242

    public let writer: any DatabaseWriter
    /// The file, or nil for an in-memory archive.
    public let path: String?

    /// Opens the archive at `path`, creating it (owner-only permissions) when absent — unless
    /// `creating` is false: then a missing archive is an error and nothing is written.
    public static func open(at path: String, creating: Bool = true) throws -> ArchiveStore {
        if !creating && !FileManager.default.fileExists(atPath: path) { throw ArchiveError.missing(path: path) }
        Self.sqliteConfigured
        try prepareFile(at: path)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // Another process's write can hold the file a moment; a check holds it throughout (a
        // first check even from readers), and is reported busy after this wait.
        configuration.busyMode = .timeout(2)
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            return try ArchiveStore(writer: pool, path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ArchiveError.notAnArchive(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw ArchiveError.busy(path: path)
        }
    }

    /// An archive in memory, for tests and the demo.
    public static func inMemory() throws -> ArchiveStore {
        Self.sqliteConfigured
        return try ArchiveStore(writer: DatabaseQueue(), path: nil)
    }

    /// SQLite's process-wide settings, made once before its first connection: without memory
    /// statistics, which nothing here reads and which cost a global mutex on every allocation
    /// (an import's writer spent about 7 % of its time there). Too late once another part of
    /// the process has used SQLite; then nothing changes.
    private static let sqliteConfigured: Void = {
        _ = healthprobe_sqlite_disable_memory_statistics()
    }()

    init(writer: any DatabaseWriter, path: String?) throws {
        self.writer = writer
        self.path = path
        let displayPath = path ?? "the in-memory archive"
        let migrator = Self.migrator
        let state = try writer.read { db in try Self.inspect(db, migrator: migrator) }
        switch state {
        case .foreign: throw ArchiveError.notAnArchive(path: displayPath)
        case .newer(let unknown):
            throw ArchiveError.writtenByNewerVersion(path: displayPath, unknownMigrations: unknown)
        case .current: break
        case .empty, .needsMigration:
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

    private enum State: Equatable {
        case empty, foreign, newer([String]), needsMigration, current
    }

    private static func inspect(_ db: Database, migrator: DatabaseMigrator) throws -> State {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty { return .empty }
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard application == applicationID, tables.contains("grdb_migrations") else { return .foreign }
        let applied = try migrator.appliedIdentifiers(db)
        let known = Set(migrator.migrations)
        let unknown = applied.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty { return .newer(unknown) }
        return applied.count == known.count ? .current : .needsMigration
    }

    /// Creates the file with owner-only permissions, or checks that an existing one is SQLite.
    private static func prepareFile(at path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ArchiveError.cannotCreate(path: path, problem: "permission denied")
            }
            defer { try? handle.close() }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            if !header.isEmpty && header != Data("SQLite format 3\0".utf8) {
                throw ArchiveError.notAnArchive(path: path)
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
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else {
            throw ArchiveError.cannotCreate(path: path, problem: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    /// Deletes captures an interrupted import left `running`, with anything that refers to them.
    /// A live check cut off (`liveCheck`) stays: the next check resumes it.
    private func removeInterruptedCaptures() throws {
        let interrupted = try writer.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM capture
                    WHERE status = 'running' AND id NOT IN (SELECT captureId FROM liveCheck)
                    """)
        }
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

    /// Removes a capture that did not complete, with everything it changed: the records it
    /// first saw, its marks on the others, its anomalies.
    static func undoCapture(_ capture: Int64, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM anomalyRecord WHERE anomalyId IN (SELECT id FROM anomaly WHERE captureId = ?)",
            arguments: [capture])
        try db.execute(sql: "DELETE FROM anomaly WHERE captureId = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM routeFile WHERE captureId = ?", arguments: [capture])
        try db.execute(
            sql:
                "DELETE FROM correlationMember WHERE correlationId IN (SELECT id FROM record WHERE firstSeenCapture = ?)",
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
        try db.execute(
            sql: """
                UPDATE record SET lastSeenCapture = previousSeenCapture, previousSeenCapture = NULL
                WHERE lastSeenCapture = ?
                """, arguments: [capture])
        try db.execute(
            sql: "UPDATE record SET goneCapture = NULL, goneReason = NULL WHERE goneCapture = ?", arguments: [capture])
        try db.execute(sql: "DELETE FROM capture WHERE id = ?", arguments: [capture])
    }
}

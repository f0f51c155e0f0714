import Foundation
internal import GRDB

/// What `archive backup` wrote: a verified copy of the archive. (In code, "backup" is an iPhone's;
/// the command keeps the word users know for a copy of the archive.)
public struct ArchiveCopy: Sendable, Equatable {
    public var path: String
    public var bytes: Int64
    /// Complete captures the copy holds: those completed before the copy began.
    public var captures: Int
    public var verification: ArchiveVerification

    /// "Backed up 2 complete captures to PATH, verified intact": what every face says of it.
    public var summary: String {
        "Backed up \(captures) complete capture\(captures == 1 ? "" : "s") to \(path), verified intact"
    }
}

extension ArchiveStore {
    /// Where a copy goes when nobody names a file: `backups/` beside the archive (owner-only),
    /// one file per moment, `archive-20000101-000000.sqlite` — `…-000000-2.sqlite` for a second
    /// copy within that second: a name nobody chose is never one the user must replace.
    public func defaultCopyPath(now: Date = Date()) throws -> String {
        guard let path else { throw ArchiveError.storage(problem: "an archive in memory has no file to back up") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backups")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ArchiveCopyError.cannotWrite(folder.path, "the folder cannot be created")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        let stamp = String(
            format: "%04d%02d%02d-%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
            parts.second!)
        var name = "archive-\(stamp).sqlite"
        var taken = 1
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            taken += 1
            name = "archive-\(stamp)-\(taken).sqlite"
        }
        return folder.appendingPathComponent(name).path
    }

    /// Writes a consistent copy of the archive to `destination` while other processes read and
    /// write it, verifies the copy, and only then puts it in place.
    ///
    /// The copy is SQLite's `VACUUM INTO` from one read transaction: it holds exactly what was
    /// committed when the copy began — a check still running is not in it — compacted, with
    /// owner-only permissions. It is written to a temporary file beside `destination`, checked
    /// with ``verify()`` (integrity and the archive's own invariants), and renamed into place
    /// only when intact; a failed or interrupted copy leaves nothing at `destination`. It only
    /// reads the archive, so it never waits for a check, and writes nothing to it.
    public func copy(to destination: String, replacing: Bool = false) throws -> ArchiveCopy {
        guard let path else { throw ArchiveError.storage(problem: "an archive in memory has no file to back up") }
        let manager = FileManager.default
        let target = URL(fileURLWithPath: destination).standardizedFileURL
        guard !isOwnFile(target.path) else { throw ArchiveCopyError.sameFile(destination) }
        if manager.fileExists(atPath: target.path) && !replacing { throw ArchiveCopyError.exists(destination) }
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        // A new, empty, owner-only file, which VACUUM INTO fills (it accepts an empty one).
        let descriptor = Foundation.open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ArchiveCopyError.cannotWrite(destination, String(cString: strerror(errno))) }
        close(descriptor)
        // Gone in the end: renamed into place, linked there (this name then goes), or failed.
        defer { Self.removeCopy(at: temporary.path) }
        do {
            try writer.unsafeRead { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [temporary.path])
            }
        } catch {
            throw ArchiveError.from(error, path: path) ?? error
        }
        let (verification, captures) = try Self.verifyCopy(at: temporary.path)
        guard verification.isIntact else { throw ArchiveCopyError.copyNotIntact(verification.problems) }
        // Into place in one step: rename replaces a file atomically, and link refuses one that
        // appeared meanwhile; either way the destination is the old file or the whole copy.
        if replacing {
            guard rename(temporary.path, target.path) == 0 else {
                throw ArchiveCopyError.cannotWrite(destination, String(cString: strerror(errno)))
            }
        } else {
            guard link(temporary.path, target.path) == 0 else {
                if errno == EEXIST { throw ArchiveCopyError.exists(destination) }
                throw ArchiveCopyError.cannotWrite(destination, String(cString: strerror(errno)))
            }
        }
        let bytes = (try? manager.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
        return ArchiveCopy(path: target.path, bytes: bytes, captures: captures, verification: verification)
    }

    /// Verifies the copy through one read-only connection, which writes nothing to it: the copy
    /// stays a single file in rollback-journal mode, without a `-wal` or `-shm` beside it, and
    /// returns to WAL when it is opened as an archive.
    private static func verifyCopy(at path: String) throws -> (ArchiveVerification, captures: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let copy = try ArchiveStore(writer: queue, path: path)
        let verification = try copy.verify(recording: false)
        let captures = try copy.fetchOverview().captures
        try queue.close()
        return (verification, captures)
    }

    private static func removeCopy(at path: String) {
        for suffix in companionSuffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// Why a copy of the archive was not written. Nothing is left at the destination.
public enum ArchiveCopyError: Refusal, LocalizedError, Equatable {
    case exists(String)
    case sameFile(String)
    case cannotWrite(String, String)
    case copyNotIntact([String])

    public var exitCode: Int32 { RefusalCode.unusable }
    public var wayOn: WayOn? {
        if case .exists = self { return .replaceOutput }
        return nil
    }
    public var errorDescription: String? { message }

    public var message: String {
        switch self {
        case .exists(let path): "\(path) exists (nothing was written)"
        case .sameFile(let path): "\(path) is the archive itself or one of its files (nothing was written)"
        case .cannotWrite(let path, let problem): "cannot write \(path): \(problem) (nothing was written)"
        case .copyNotIntact(let problems):
            "the copy failed its verification (\(problems.joined(separator: "; "))); nothing was written"
        }
    }
}

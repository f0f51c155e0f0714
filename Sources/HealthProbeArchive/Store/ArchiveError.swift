import Foundation
internal import GRDB

/// Why the archive could not be opened, read or written. Messages state what happened; the
/// faces add how to go on (a flag, a button) and, where they were changing something, that
/// nothing was (``leavesArchiveAsItWas``).
public enum ArchiveError: Refusal, LocalizedError, Equatable {
    case notAnArchive(path: String)
    case writtenByNewerVersion(path: String, unknownMigrations: [String])
    case cannotCreate(path: String, problem: String)
    case storage(problem: String)
    case missing(path: String)
    case unknownAnomalies([String])
    /// Another HealthProbe held the archive for longer than this one waits: a check writing it
    /// (or, for readers, a first check filling it). Nothing was changed.
    case busy(path: String)
    /// SQLite found the file damaged.
    case damaged(path: String)
    /// The file or the disk refused a write: full, read-only, or an input/output error.
    case cannotWrite(path: String, problem: String)

    public var errorDescription: String? { message }

    /// 64 for an anomaly id that is not there (the user's slip), 74 for the rest.
    public var exitCode: Int32 {
        if case .unknownAnomalies = self { return RefusalCode.usage }
        return RefusalCode.unusable
    }

    public var archiveLeftAsItWas: Bool { leavesArchiveAsItWas }

    public var wayOn: WayOn? {
        switch self {
        case .notAnArchive: .nameAnotherArchive
        case .cannotCreate: .nameWritablePlace
        case .missing: .checkFirstOrNameArchive
        case .unknownAnomalies: .listAnomalies
        case .damaged: .verifyThenRestore
        case .storage, .cannotWrite: .verifyArchive
        case .busy, .writtenByNewerVersion: nil
        }
    }

    public var message: String {
        switch self {
        case .notAnArchive(let path):
            "\(path) is not a HealthProbe archive"
        case .writtenByNewerVersion(let path, _):
            "\(path) was written by a newer HealthProbe; update HealthProbe to open it"
        case .cannotCreate(let path, let problem):
            "cannot create the archive at \(path): \(problem)"
        case .storage(let problem):
            "the archive could not be written: \(problem)"
        case .missing(let path):
            "there is no archive at \(path) yet"
        case .busy(let path):
            "\(path) is busy: another HealthProbe is writing it, as a check does until it finishes; try again then"
        case .damaged(let path):
            "\(path) is damaged: SQLite found its pages inconsistent"
        case .cannotWrite(let path, let problem):
            "\(path) could not be written: \(problem)"
        case .unknownAnomalies(let ids):
            "no anomaly with id \(ids.joined(separator: ", ")) in this archive"
        }
    }

    /// Whether a write refused this way changed nothing at all: it never began (the archive was
    /// busy, newer, or the anomaly unknown), so a writing face may say so.
    public var leavesArchiveAsItWas: Bool {
        switch self {
        case .writtenByNewerVersion, .busy, .unknownAnomalies: true
        default: false
        }
    }

    /// SQLite's error for the archive at `path` in words, or nil when `error` is not SQLite's.
    /// No face shows SQLite's own text ("SQLite error 5: database is locked - while executing …"),
    /// which names statements and not what happened.
    public static func from(_ error: any Error, path: String) -> ArchiveError? {
        if let error = error as? ArchiveError { return error }
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy(path: path)
        case .SQLITE_CORRUPT: return .damaged(path: path)
        case .SQLITE_NOTADB: return .notAnArchive(path: path)
        case .SQLITE_FULL: return .cannotWrite(path: path, problem: "the disk is full")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return .cannotWrite(path: path, problem: "it is read-only for HealthProbe")
        case .SQLITE_CANTOPEN: return .cannotWrite(path: path, problem: "it cannot be opened")
        case .SQLITE_IOERR: return .cannotWrite(path: path, problem: "an input/output error")
        default: return .storage(problem: "SQLite refused a statement (code \(error.resultCode.rawValue))")
        }
    }
}

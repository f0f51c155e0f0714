import Foundation

/// Why the archive could not be opened or written. Messages say what to do.
public enum ArchiveError: Error, LocalizedError, Equatable {
    case notAnArchive(path: String)
    case writtenByNewerVersion(path: String, unknownMigrations: [String])
    case cannotCreate(path: String, problem: String)
    case storage(problem: String)
    case missing(path: String)
    case unknownAnomalies([String])
    case busy(path: String)

    public var errorDescription: String? {
        switch self {
        case .notAnArchive(let path):
            "\(path) is not a HealthProbe archive; name another file with --archive"
        case .writtenByNewerVersion(let path, _):
            "\(path) was written by a newer HealthProbe; update HealthProbe to open it (nothing was changed)"
        case .cannotCreate(let path, let problem):
            "cannot create the archive at \(path): \(problem); name a writable place with --archive"
        case .storage(let problem):
            "the archive could not be written: \(problem); `healthprobe status` checks its integrity"
        case .missing(let path):
            "there is no archive at \(path) yet; run `healthprobe check export.zip` first, or name one with --archive"
        case .busy(let path):
            "\(path) is being written by another HealthProbe; try again when it has finished (nothing was changed)"
        case .unknownAnomalies(let ids):
            "no anomaly with id \(ids.joined(separator: ", ")) in this archive; `healthprobe anomalies --all` lists them (nothing was changed)"
        }
    }
}

import Foundation
import HealthProbeArchive

/// Why a file could not be read as a Health database, in one line each.
public enum HealthDatabaseError: Error, Equatable, Sendable {
    /// Not an SQLite file, or one SQLite cannot open.
    case unreadable(name: String)
    /// An SQLite file, but not `healthdb_secure.sqlite`: a table every version has is missing.
    case notAHealthDatabase(name: String, missing: String)
    /// A folder without `healthdb_secure.sqlite` in it (or in its `Health/`).
    case noHealthDatabase(folder: String)
    /// A name that is not a regular file inside what was given: a link leading out of it, a
    /// pipe, a device or a folder. Never opened, never copied.
    case notARegularFile(name: String)
    /// `healthdb.sqlite`, beside the secure database to name its sources, is not a database.
    case unreadableSources
    /// A name that is a folder where a database file should be.
    case aFolder(name: String)

    public var message: String {
        switch self {
        case .unreadable(let name): "\(name) is not a database HealthProbe can read; give healthdb_secure.sqlite"
        case .notAHealthDatabase(let name, let missing):
            "\(name) is not an iPhone Health database: it has no \(missing) table; give healthdb_secure.sqlite"
        case .noHealthDatabase(let folder):
            "\(folder) holds no healthdb_secure.sqlite (nor does its Health folder); give the folder that holds it"
        case .unreadableSources:
            "healthdb.sqlite, beside healthdb_secure.sqlite to name its sources, is not a database HealthProbe can "
                + "read; take both from the same backup, or leave it out"
        case .aFolder(let name): "\(name) is a folder, where the database file should be; give the file itself"
        case .notARegularFile(let name):
            "\(name) is not a regular file inside what was given (a link leading out of it, a pipe or a device): refused"
        }
    }
}

extension HealthDatabaseError: LocalizedError, Refusal {
    public var errorDescription: String? { message }
    public var exitCode: Int32 { RefusalCode.unreadableInput }
    public var archiveLeftAsItWas: Bool { true }
    public func trailLine(for input: URL) -> String? { inputTrailLine(for: input) }
}

extension PhoneBackupError: LocalizedError, Refusal {
    public var errorDescription: String? { message }
    /// "Backup: the backup's password is not right: …": the message names no folder.
    public func message(naming input: URL) -> String { "\(input.lastPathComponent): \(message)" }
    public var exitCode: Int32 { RefusalCode.unreadableInput }
    public var archiveLeftAsItWas: Bool { true }
    public func trailLine(for input: URL) -> String? { inputTrailLine(for: input) }
}

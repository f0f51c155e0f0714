import Foundation
import HealthProbeArchive

/// What a path given to check holds, told from its first bytes or the files in it, before
/// anything is opened for real.
public enum CheckInput: Sendable, Equatable {
    /// An Apple Health export: a zip, its main XML file, or an unzipped folder.
    case export
    /// A Health database: `healthdb_secure.sqlite` (any SQLite file is taken for one, and said
    /// not to be one if it is not), or a folder holding it, directly or in `Health/`.
    case healthDatabase
    /// An iPhone backup folder (`Manifest.plist`); only an encrypted one holds Health data.
    case backup(encrypted: Bool)
    /// A backup folder whose `Manifest.plist` cannot be read: neither encrypted nor not.
    case damagedBackup

    public static func of(_ path: String) -> CheckInput {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .export }
        if isFolder.boolValue {
            if EncryptedBackup.isBackup(url) {
                guard
                    let manifest = BackupPropertyList.dictionary(
                        url.appendingPathComponent("Manifest.plist"), inside: url)
                else { return .damagedBackup }
                return .backup(encrypted: manifest["IsEncrypted"]?.bool ?? false)
            }
            let holdsDatabase = [HealthDatabaseReader.secureName, "Health/\(HealthDatabaseReader.secureName)"].contains
            {
                FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
            }
            return holdsDatabase ? .healthDatabase : .export
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .export }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return head.starts(with: Array("SQLite format 3".utf8) + [0]) ? .healthDatabase : .export
    }
}

import Foundation
import HealthProbeArchive

/// Checking an iPhone's Health database into the archive — `healthdb_secure.sqlite`, a folder
/// holding it, or an encrypted backup — in the steps an export's check takes (``AppleExportCheck``):
/// the database is opened (copied or decrypted into a private folder) before the archive is
/// touched, so that a file that is not a Health database, a damaged backup or a wrong password
/// changes nothing; then one transaction stores the capture (``BackupImporter``).
public final class BackupCheck: Sendable {
    public let reader: HealthDatabaseReader
    /// The file or folder's name, as captures and messages show it.
    public let inputName: String

    public enum Source {
        /// `healthdb_secure.sqlite`, or a folder holding it.
        case database(path: String)
        /// An encrypted backup folder and its password.
        case encryptedBackup(folder: URL, password: [UInt8])
    }

    /// Opens `source`; `deriving` is told the password's rounds before they run. A refusal is
    /// noted in the trail of the archive at `archivePath` when one exists there; none is created.
    public init(
        _ source: Source, archivePath: String?, workFolder: URL = FileManager.default.temporaryDirectory,
        deriving: ((Int) -> Void)? = nil
    ) throws(CheckFailure) {
        do {
            switch source {
            case .database(let path):
                inputName = URL(fileURLWithPath: path).lastPathComponent
                reader = try HealthDatabaseReader(path: path, workFolder: workFolder)
            case .encryptedBackup(let folder, let password):
                inputName = folder.lastPathComponent
                reader = try HealthDatabaseReader(
                    backup: folder, password: password, workFolder: workFolder, deriving: deriving)
            }
        } catch {
            if let archivePath {
                let input: URL
                switch source {
                case .database(let path): input = URL(fileURLWithPath: path)
                case .encryptedBackup(let folder, _): input = folder
                }
                AppleExportCheck.noteRefusal(
                    archiveAt: archivePath, message: AppleExportCheck.refusal(of: input, error))
            }
            throw CheckFailure(underlying: error, archiveUnchanged: true)
        }
    }

    /// Stores the database as a capture of `store` and audits it against the previous export or
    /// backup; one that shares almost nothing with the archive is refused unless `allowUnrelated`.
    public func run(
        into store: ArchiveStore, allowUnrelated: Bool = false, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws(CheckFailure) -> BackupImporter.Result {
        try store.checking {
            try BackupImporter(store: store, allowUnrelated: allowUnrelated).importDatabase(
                reader, inputName: inputName, progress: progress)
        } noting: { error in
            if let unrelated = error as? UnrelatedCaptureRefusal {
                AppleExportCheck.noteRefusal(in: store, message: "refused \(unrelated.localizedDescription)")
            }
        }
    }
}

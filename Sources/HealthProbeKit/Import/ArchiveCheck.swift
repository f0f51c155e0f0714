import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Checking one input into the archive: what `healthprobe check`, the dashboard's Check Now and
/// the tests all do, in the same steps and with the same outcome, whatever the input.
///
/// 1. ``open(_:archivePath:password:workFolder:deriving:)`` tells what the path holds — an Apple
///    Health export (a zip, its main XML file or an unzipped folder), an iPhone's Health database
///    (`healthdb_secure.sqlite` or a folder holding it) or an encrypted backup — and opens it
///    (a database copied, or decrypted, into a private folder) before the archive is touched:
///    an input that cannot be read changes nothing, and no archive is created for it.
/// 2. ``run(into:allowOlder:allowUnrelated:pageCacheKiB:cancellation:progress:)`` stores it as one
///    capture in one transaction and audits it against the export or backup checked before.
/// 3. A refused input — at once or half-way through — is noted in the archive's audit trail in
///    the refusal's own words (``Refusal/trailLine(for:)``), and nothing else is written.
///
/// A failure is a ``CheckFailure`` that says whether the archive was verified unchanged: its
/// captures and records read again after, compared with before.
public struct ArchiveCheck: Sendable {
    /// The input as opened.
    public enum Reader: Sendable {
        case export(AppleExportReader)
        case healthDatabase(HealthDatabaseReader)
    }

    public let reader: Reader
    /// The file or folder as given, as refusals name it.
    public let input: URL

    /// The file or folder's name, as captures and messages show it.
    public var inputName: String {
        switch reader {
        case .export(let reader): reader.source.displayName
        case .healthDatabase: input.lastPathComponent
        }
    }

    /// Opens what `path` holds. An encrypted backup's password comes from `password`, asked only
    /// for one (nil: none can be asked for, and the backup is refused); `deriving` is told the
    /// password's rounds before they run. A refusal is noted in the trail of the archive at
    /// `archivePath` when one exists there; none is created.
    public static func open(
        _ path: String, archivePath: String?, password: (() throws -> [UInt8])? = nil,
        workFolder: URL = FileManager.default.temporaryDirectory, deriving: ((Int) -> Void)? = nil
    ) throws(CheckFailure) -> ArchiveCheck {
        let input = URL(fileURLWithPath: path)
        do {
            switch CheckInput.of(path) {
            case .export:
                return ArchiveCheck(reader: .export(try AppleExportReader(url: input)), input: input)
            case .healthDatabase:
                let reader = try HealthDatabaseReader(path: path, workFolder: workFolder)
                return ArchiveCheck(reader: .healthDatabase(reader), input: input)
            case .damagedBackup:
                throw PhoneBackupError.damaged(what: "its Manifest.plist")
            case .backup(encrypted: false):
                throw PhoneBackupError.notEncrypted
            case .backup(encrypted: true):
                guard let password else { throw PhoneBackupError.passwordNeeded }
                let secret: [UInt8]
                do {
                    secret = try password()
                } catch {
                    // The password could not be read: nothing about the input to note.
                    throw CheckFailure(underlying: error, archiveUnchanged: true, input: input)
                }
                let reader = try HealthDatabaseReader(
                    backup: input, password: secret, workFolder: workFolder, deriving: deriving)
                return ArchiveCheck(reader: .healthDatabase(reader), input: input)
            }
        } catch let failure as CheckFailure {
            throw failure
        } catch {
            if let archivePath, let line = (error as? any Refusal)?.trailLine(for: input) {
                noteRefusal(archiveAt: archivePath, line)
            }
            throw CheckFailure(underlying: error, archiveUnchanged: true, input: input)
        }
    }

    /// Stores the input as a capture of `store` and audits it. An export made before the one last
    /// checked is refused unless `allowOlder` (``OlderExportRefusal``), an input that shares almost
    /// nothing with the archive unless `allowUnrelated` (``UnrelatedCaptureRefusal``);
    /// `cancellation` and `pageCacheKiB` apply to an export (a Health database is read whole once
    /// it is open).
    public func run(
        into store: ArchiveStore, allowOlder: Bool = false, allowUnrelated: Bool = false,
        pageCacheKiB: Int = ArchiveStore.importPageCacheKiB, cancellation: CancellationFlag? = nil,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws(CheckFailure) -> CheckResult {
        let before = try? store.footprint()
        do {
            switch reader {
            case .export(let reader):
                return CheckResult(
                    try AppleExportImporter(
                        store: store, pageCacheKiB: pageCacheKiB, allowOlder: allowOlder,
                        allowUnrelated: allowUnrelated, cancellation: cancellation
                    ).importExport(reader, progress: progress))
            case .healthDatabase(let reader):
                return CheckResult(
                    try BackupImporter(store: store, allowUnrelated: allowUnrelated).importDatabase(
                        reader, inputName: inputName, progress: progress))
            }
        } catch {
            let after = try? store.footprint()
            // The archive's own errors come in words already (``ArchiveError``).
            if let line = (error as? any Refusal)?.trailLine(for: input) {
                Self.noteRefusal(in: store, line)
            }
            throw CheckFailure(underlying: error, archiveUnchanged: before != nil && before == after, input: input)
        }
    }

    /// Notes a refused input in the trail of an existing archive; creates none.
    private static func noteRefusal(archiveAt path: String, _ line: String) {
        guard FileManager.default.fileExists(atPath: path), let store = try? ArchiveStore.open(at: path) else { return }
        noteRefusal(in: store, line)
    }

    private static func noteRefusal(in store: ArchiveStore, _ line: String) {
        try? store.recordInAuditTrail(.inputRefused, message: line)
    }
}

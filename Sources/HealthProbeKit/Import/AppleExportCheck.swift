import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Checking one Apple Health export into the archive: what `healthprobe check` and the
/// dashboard's Check Now both do, in the same steps and with the same outcome.
///
/// 1. The input is opened before the archive is touched: an input that is not a readable
///    export changes nothing, and no archive is created for it.
/// 2. The import stores the export as one capture in one transaction (``AppleExportImporter``).
/// 3. A refused input — at once or half-way through — is noted in the archive's audit trail,
///    and nothing else is written.
///
/// A failure says whether the archive was verified unchanged: its captures and records read
/// again after the failed import, compared with before. A face says "the archive was left as it
/// was" only then.
public struct AppleExportCheck: Sendable {
    public let reader: AppleExportReader
    /// The file or folder as given, as refusals name it.
    public let input: URL

    /// Opens `input` (a zip, a folder or the main XML file). A refusal is noted in the trail of
    /// the archive at `archivePath` when one exists there; none is created.
    public init(input: URL, archivePath: String?) throws(CheckFailure) {
        self.input = input
        do {
            reader = try AppleExportReader(url: input)
        } catch {
            if let archivePath { Self.noteRefusal(archiveAt: archivePath, message: Self.refusal(of: input, error)) }
            throw CheckFailure(underlying: error, archiveUnchanged: true)
        }
    }

    /// Imports the export into `store` and audits it against the previous capture; an export
    /// made before the one last checked is refused unless `allowOlder`.
    public func run(
        into store: ArchiveStore, pageCacheKiB: Int = ArchiveStore.importPageCacheKiB, allowOlder: Bool = false,
        allowUnrelated: Bool = false, cancellation: CancellationFlag? = nil,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws(CheckFailure) -> AppleExportImporter.Result {
        try store.checking {
            try AppleExportImporter(
                store: store, pageCacheKiB: pageCacheKiB, allowOlder: allowOlder, allowUnrelated: allowUnrelated,
                cancellation: cancellation
            ).importExport(reader, progress: progress)
        } noting: { error in
            if error is AppleExportError { Self.noteRefusal(in: store, message: Self.refusal(of: input, error)) }
            if let older = error as? OlderExportRefusal {
                Self.noteRefusal(in: store, message: "refused \(older.inputName): older than the export last checked")
            }
            if let unrelated = error as? UnrelatedCaptureRefusal {
                Self.noteRefusal(in: store, message: "refused \(unrelated.localizedDescription)")
            }
        }
    }

    /// The audit trail's line for a refused input: its file name and why, as the refusal said it
    /// ("refused export.zip: it is not a zip archive …").
    public static func refusal(of input: URL, _ error: any Error) -> String {
        let name = input.lastPathComponent
        let reason =
            (error as? PhoneBackupError)?.message ?? (error as? HealthDatabaseError)?.message
            ?? error.localizedDescription
        return "refused " + (reason.hasPrefix(name) || reason.hasPrefix(input.path) ? reason : "\(name): \(reason)")
    }

    /// Notes a refused input in the trail of an existing archive; creates none.
    public static func noteRefusal(archiveAt path: String, message: String) {
        guard FileManager.default.fileExists(atPath: path), let store = try? ArchiveStore.open(at: path) else { return }
        noteRefusal(in: store, message: message)
    }

    static func noteRefusal(in store: ArchiveStore, message: String) {
        try? store.recordInAuditTrail(.inputRefused, message: message)
    }
}

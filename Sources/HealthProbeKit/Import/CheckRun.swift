import Foundation
import HealthProbeArchive

/// A check with its input opened — an Apple export, or an iPhone's Health database from a file
/// or a backup — run into the archive the same way by every face, and what it found in one shape.
public enum CheckRun: Sendable {
    case export(AppleExportCheck)
    case backup(BackupCheck)

    /// The file or folder's name, as captures and messages show it.
    public var inputName: String {
        switch self {
        case .export(let check): check.reader.source.displayName
        case .backup(let check): check.inputName
        }
    }

    /// Stores the input as a capture of `store` and audits it; `allowOlder` and `cancellation`
    /// apply to an export (a backup's database is read whole once it is open), `allowUnrelated`
    /// to both (``UnrelatedCaptureRefusal``).
    public func run(
        into store: ArchiveStore, allowOlder: Bool = false, allowUnrelated: Bool = false,
        cancellation: CancellationFlag? = nil,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws(CheckFailure) -> CheckResult {
        switch self {
        case .export(let check):
            CheckResult(
                try check.run(
                    into: store, allowOlder: allowOlder, allowUnrelated: allowUnrelated, cancellation: cancellation,
                    progress: progress))
        case .backup(let check):
            CheckResult(try check.run(into: store, allowUnrelated: allowUnrelated, progress: progress))
        }
    }
}

/// What a check found, whatever its input, as the command line, the dashboard and the app present it.
public struct CheckResult: Sendable {
    public var capture: CaptureSummary
    public var anomalies: [Anomaly]
    /// The detectors' notes ("divergence not tested for …").
    public var notes: [String]
    /// An export's elements kept raw, by name and reason.
    public var unreadableElements: [AppleExportImporter.UnreadableGroup]
    /// A Health database's records deleted in Health, by type and day; nil for an export.
    public var deletions: [BackupImporter.Deletion]?

    public init(_ result: AppleExportImporter.Result) {
        capture = result.capture
        anomalies = result.audit.anomalies
        notes = result.audit.notes
        unreadableElements = result.unreadable
        deletions = nil
    }

    public init(_ result: BackupImporter.Result) {
        capture = result.capture
        anomalies = result.audit.anomalies
        notes = result.audit.notes
        unreadableElements = []
        deletions = result.deletions
    }

    /// Every note in a sentence, what a Health database adds first (``BackupNotes``): what the
    /// dashboard and the app show under a check.
    public var sentences: [String] {
        BackupNotes.lines(self) + notes
    }
}

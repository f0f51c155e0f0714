import AppleHealthExport
import Foundation
import HealthProbeArchive

/// What a check found, whatever its input: what the command line prints (and `check --json`
/// gives: `{"capture": {...}, "anomalies": [...]}`, docs/DESIGN.md §9), and what the dashboard
/// and the app show.
public struct CheckResult: Sendable, Encodable {
    public var capture: CaptureSummary
    public var anomalies: [Anomaly]
    /// The detectors' notes ("divergence not tested for …").
    public var notes: [String]
    /// An export's elements kept raw, by name and reason.
    public var unreadableElements: [AppleExportImporter.UnreadableGroup]
    /// A Health database's records deleted in Health, by type and day; nil for an export.
    public var deletions: [BackupImporter.Deletion]?
    /// A Health database's deletions healthd made itself, packing samples into series: no losses.
    public var housekeepingDeletions = 0

    init(_ result: AppleExportImporter.Result) {
        capture = result.capture
        anomalies = result.audit.anomalies
        notes = result.audit.notes
        unreadableElements = result.unreadable
        deletions = nil
    }

    init(_ result: BackupImporter.Result) {
        capture = result.capture
        anomalies = result.audit.anomalies
        notes = result.audit.notes
        unreadableElements = []
        deletions = result.deletions
        housekeepingDeletions = result.housekeepingDeletions
    }

    /// Every note in a sentence, what a Health database adds first (``BackupNotes``): what the
    /// dashboard and the app show under a check.
    public var sentences: [String] {
        BackupNotes.lines(self) + notes
    }

    private enum CodingKeys: String, CodingKey { case capture, anomalies }
    private enum CaptureKeys: String, CodingKey { case unreadableElements, deletedInHealthByDay }

    /// The capture's summary with what the check adds to it, then the anomalies.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(CaptureJSON(result: self), forKey: .capture)
        try container.encode(anomalies, forKey: .anomalies)
    }

    private struct CaptureJSON: Encodable {
        let result: CheckResult

        func encode(to encoder: any Encoder) throws {
            try result.capture.encode(to: encoder)
            var container = encoder.container(keyedBy: CaptureKeys.self)
            try container.encode(result.unreadableElements, forKey: .unreadableElements)
            try container.encodeIfPresent(result.deletions, forKey: .deletedInHealthByDay)
        }
    }
}

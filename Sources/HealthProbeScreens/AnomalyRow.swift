import Foundation
import HealthProbeArchive
import HealthProbeKit

/// One anomaly as a list shows it: never a health value — type, sample type, severity, date and
/// the summary, which counts records and names days but holds no value.
public struct AnomalyRow: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var severity: Severity
    public var type: AnomalyType
    /// "silent deletion".
    public var typeTitle: String
    /// "silent deletion of heart rate", "damaged workout routes" (``AnomalyType/heading(of:)``).
    public var heading: String
    public var sampleType: String
    /// "heart rate".
    public var sampleTypeName: String
    public var detectedAt: String
    public var summary: String
    public var recordCount: Int
    public var resolved: Bool
    /// "Open", "Resolved", "Recovered: all 12 back since capture 3", "Withdrawn with capture 2, …".
    public var state: String
    /// What a screen reader says for the row.
    public var accessibilityLabel: String

    public init(_ anomaly: Anomaly, format: ScreenFormat) {
        id = anomaly.id
        severity = anomaly.severity
        type = anomaly.type
        typeTitle = anomaly.type.title
        heading = anomaly.type.heading(of: anomaly.sampleType)
        sampleType = anomaly.sampleType
        sampleTypeName = HealthKitCatalog.displayName(of: anomaly.sampleType)
        detectedAt = format.dateTime(anomaly.detectedAt)
        summary = anomaly.summary
        recordCount = anomaly.recordCount
        resolved = anomaly.resolved
        state = EvidenceText.sentence(anomaly.status)
        accessibilityLabel =
            "\(anomaly.severity.title) \(heading), detected \(detectedAt)"
            + (anomaly.status == "open" ? "" : ", \(anomaly.status)")
    }
}

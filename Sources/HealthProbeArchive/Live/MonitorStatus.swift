import Foundation

/// How the user's Health data looks after the last check. `unknown` is never "healthy": it says
/// why HealthProbe cannot tell.
public enum MonitorStatus: Sendable, Equatable, Codable {
    case healthy, warning, critical
    case unknown(reason: String)

    public var label: String {
        switch self {
        case .healthy: "healthy"
        case .warning: "warning"
        case .critical: "critical"
        case .unknown: "unknown"
        }
    }

    /// For people: the reason when unknown, else the label.
    public var message: String {
        if case .unknown(let reason) = self { return reason }
        return label
    }

    /// What the status means, for someone who sees it alone.
    public var meaning: String {
        switch self {
        case .healthy: "no unresolved warning or critical anomaly"
        case .warning: "an unresolved anomaly needs a look; none is critical"
        case .critical: "an unresolved critical anomaly: records may be lost"
        case .unknown(let reason): reason
        }
    }

    /// The status a check's anomalies give: the worst severity, info counting as healthy.
    public static func from(_ anomalies: [Anomaly]) -> MonitorStatus {
        worst(anomalies.map(\.severity))
    }

    /// The status of the worst of these severities; none, or info only, is healthy.
    static func worst(_ severities: some Sequence<Severity>) -> MonitorStatus {
        switch severities.max() {
        case .critical: .critical
        case .warning: .warning
        default: .healthy
        }
    }

    public static let accessOff = MonitorStatus.unknown(
        reason: "Health access is off: enable it in Settings > Privacy > Health")
}

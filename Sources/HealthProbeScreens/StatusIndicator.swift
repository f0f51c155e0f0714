import HealthProbeArchive
import HealthProbeKit

/// The colour a screen gives a state, by role: each face maps roles to its own palette (system
/// colours on iPhone, CSS variables with a dark variant on the web).
public enum ColorRole: String, Sendable, Equatable, Codable {
    case healthy, warning, critical, neutral
}

/// The dashboard's large status: a symbol, a colour role and words.
public struct StatusIndicator: Sendable, Equatable {
    /// healthy, warning, critical or unknown.
    public var label: String
    /// The SF Symbol (the web draws its own equivalent of the same name).
    public var symbol: String
    public var role: ColorRole
    public var title: String
    /// What it means, or why HealthProbe cannot tell.
    public var detail: String

    public init(_ status: MonitorStatus) {
        label = status.label
        switch status {
        case .healthy:
            symbol = "checkmark.shield.fill"
            role = .healthy
            title = "Healthy"
            detail = "Nothing vanished, appeared late, was duplicated or rewritten that still needs a look."
        case .warning:
            symbol = "exclamationmark.triangle.fill"
            role = .warning
            title = "Needs a look"
            detail = "Some records changed in ways worth checking."
        case .critical:
            symbol = "xmark.shield.fill"
            role = .critical
            title = "Critical"
            detail = "Records were lost or changed at a scale that needs attention."
        case .unknown(let reason):
            symbol = "questionmark.circle.fill"
            role = .neutral
            title = "Unknown"
            detail = reason
        }
    }
}

extension Severity {
    /// The colour role of a severity badge.
    public var role: ColorRole {
        switch self {
        case .info: .neutral
        case .warning: .warning
        case .critical: .critical
        }
    }

    /// "Critical".
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

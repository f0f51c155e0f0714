import Foundation

/// What started an export: the user, or a schedule.
public enum ExportTrigger: String, Sendable, Codable {
    case manual, scheduled
}

import Foundation
import HealthProbeArchive

/// Times as people read them, the same in every face: `2000-01-01 09:30 UTC`, in a time zone
/// named by its abbreviation. Scripts get ISO 8601 in UTC instead (``ReportJSON``, ``UTCText``).
public struct ReadableTime: Sendable {
    public let zone: TimeZone
    /// Made once: a list of thousands of times (the audit trail) formats each with it.
    private let calendar: Calendar
    private let zoneName: String?

    public init(zone: TimeZone = .current) {
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        zoneName = ["UTC", "GMT"].contains(zone.identifier) ? "UTC" : nil
    }

    public static let utc = ReadableTime(zone: TimeZone(identifier: "UTC")!)

    /// `2000-01-01 09:30 UTC`.
    public func minute(_ date: Date) -> String {
        text(date, seconds: false)
    }

    /// `2000-01-01 09:30:15 UTC`, for a record's own time.
    public func second(_ date: Date) -> String {
        text(date, seconds: true)
    }

    private func text(_ date: Date, seconds: Bool) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        // A zone's abbreviation changes with daylight saving time: asked for at each date.
        let name = zoneName ?? zone.abbreviation(for: date) ?? zone.identifier
        var text = String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
        if seconds { text += String(format: ":%02d", parts.second ?? 0) }
        return text + " " + name
    }
}

import Foundation
import HealthProbeArchive

/// Times as people read them, the same in every face: `2000-01-01 09:30 UTC`, in a time zone
/// named by its abbreviation. Scripts get ISO 8601 in UTC instead (``ReportJSON``, ``UTCText``).
public struct ReadableTime: Sendable {
    public let zone: TimeZone
    /// Whether the zone is UTC by one of its names: then its times ask the zone nothing.
    private let isUTC: Bool

    public init(zone: TimeZone = .current) {
        self.zone = zone
        isUTC = Self.utcNames.contains(zone.identifier)
    }

    /// Names of UTC: their times need neither the zone's rules nor a calendar (whose tables,
    /// loaded once, cost a check 1.5 MB of memory).
    private static let utcNames: Set<String> = [
        "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu",
    ]

    public static let utc = ReadableTime(zone: TimeZone(identifier: "UTC")!)

    /// `2000-01-01 09:30 UTC`.
    public func minute(_ date: Date) -> String {
        text(date, seconds: false)
    }

    /// `2000-01-01 09:30:15 UTC`, for a record's own time.
    public func second(_ date: Date) -> String {
        text(date, seconds: true)
    }

    /// The wall-clock time in the zone, written from its offset at that instant with the same
    /// digits as every UTC time (``UTCText``).
    private func text(_ date: Date, seconds: Bool) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        let offset = isUTC ? 0 : zone.secondsFromGMT(for: date)
        let wall = UTCText.iso8601(seconds: whole + Double(offset)).split(separator: "T")
        // A zone's abbreviation changes with daylight saving time: asked for at each date.
        let name = isUTC ? "UTC" : zone.abbreviation(for: date) ?? zone.identifier
        return "\(wall[0]) \(wall[1].prefix(seconds ? 8 : 5)) \(name)"
    }
}

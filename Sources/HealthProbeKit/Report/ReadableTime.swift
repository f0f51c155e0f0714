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

    /// A record's times as short as they read unambiguously: `2000-01-01 09:30:15 UTC` for an
    /// instant, `2000-01-01 09:30:15 – 09:35:00 UTC` within a day (and one zone name), both
    /// times whole otherwise.
    public func span(_ start: Date, _ end: Date) -> String {
        let first = second(start)
        guard end != start else { return first }
        let last = second(end)
        let (firstDay, firstZone) = (first.prefix(10), first.split(separator: " ").last)
        let (lastDay, lastZone) = (last.prefix(10), last.split(separator: " ").last)
        guard firstDay == lastDay, firstZone == lastZone, let lastZone else { return "\(first) – \(last)" }
        let clock = last.split(separator: " ")[1]
        return "\(first.dropLast(lastZone.count + 1)) – \(clock) \(lastZone)"
    }

    /// The wall-clock time in the zone, written from its offset at that instant with the same
    /// digits as every UTC time (``UTCText``).
    private func text(_ date: Date, seconds: Bool) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        let offset = isUTC ? 0 : zone.secondsFromGMT(for: date)
        let wall = UTCText.iso8601(seconds: whole + Double(offset)).split(separator: "T")
        // A zone's abbreviation changes with daylight saving time: chosen by the offset.
        let name = isUTC ? "UTC" : ZoneNames.shared.name(of: zone, offset: offset, at: date)
        return "\(wall[0]) \(wall[1].prefix(seconds ? 8 : 5)) \(name)"
    }
}

/// The names people know their zone's times by ("PST", "CEST"), where Foundation's own
/// abbreviation on Linux is "GMT-8": the short name in this computer's language, else in US or
/// British English, else the offset. Found once per zone and offset.
final class ZoneNames: @unchecked Sendable {
    static let shared = ZoneNames()
    private let lock = NSLock()
    private var known: [String: String] = [:]

    func name(of zone: TimeZone, offset: Int, at date: Date) -> String {
        // Names change with the years (a zone's short name may be unknown before 1970): by year.
        let key = "\(zone.identifier) \(offset) \(Int((date.timeIntervalSince1970 / 31_556_952).rounded(.down)))"
        lock.lock()
        defer { lock.unlock() }
        if let name = known[key] { return name }
        let name = Self.find(zone, at: date)
        known[key] = name
        return name
    }

    private static func find(_ zone: TimeZone, at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "zzz"
        for locale in [Locale.current, Locale(identifier: "en_US"), Locale(identifier: "en_GB")] {
            formatter.locale = locale
            let name = formatter.string(from: date)
            if !name.isEmpty, !name.hasPrefix("GMT"), !name.hasPrefix("UTC") { return name }
        }
        return zone.abbreviation(for: date) ?? zone.identifier
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// How screens write dates and numbers: in the viewer's time zone (UTC in tests), numbers grouped.
public struct ScreenFormat: Sendable {
    public var timeZone: TimeZone

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    public static let utc = ScreenFormat(timeZone: TimeZone(identifier: "UTC")!)

    /// "2000-01-01 09:30 UTC", as every face writes a time (``ReadableTime``).
    public func dateTime(_ date: Date) -> String {
        ReadableTime(zone: timeZone).minute(date)
    }

    /// "2000-01-01 09:30:15 UTC": a record's own time, to the second.
    public func recordTime(_ seconds: Double) -> String {
        ReadableTime(zone: timeZone).second(Date(timeIntervalSince1970: seconds))
    }

    /// "2000-01-01": the day an instant falls on in the viewer's zone.
    public func day(_ seconds: Double) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: seconds))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// "3 hours ago", "just now", "in 2 days".
    public func relative(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        let magnitude = abs(seconds)
        let (count, unit): (Int, String) =
            magnitude < 60
            ? (0, "")
            : magnitude < 3_600
                ? (Int(magnitude / 60), "minute")
                : magnitude < 86_400 ? (Int(magnitude / 3_600), "hour") : (Int(magnitude / 86_400), "day")
        if count == 0 { return "just now" }
        let phrase = "\(count) \(unit)\(count == 1 ? "" : "s")"
        return seconds >= 0 ? phrase + " ago" : "in " + phrase
    }

    /// "1,234".
    public func count(_ number: Int) -> String { EvidenceText.grouped(number) }

    /// "12.3 MB".
    /// A size in binary units, as the command line's limits are given: `8 GiB` for an 8 GiB cap,
    /// `40 MiB` for `--max-upload-mb 40`, `1.5 MiB`, `512 bytes`.
    public func bytes(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1_024 && unit < units.count - 1 {
            value /= 1_024
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded()
            ? "\(Int(rounded)) \(units[unit])" : String(format: "%.1f %@", rounded, units[unit])
    }
}

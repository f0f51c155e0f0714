import Foundation

/// Resolves the locale-formatted times of day of heart-rate-variability beats
/// (`11:26:02.34 AM`, `23:26:02,34`) against the parent record's start.
enum TimeOfDay {
    /// Seconds since midnight, or nil when the text is not a time of day.
    static func secondsSinceMidnight(_ text: String) -> Double? {
        var clock = Substring(text)
        var meridiem: Bool?  // true for PM
        let upper = text.uppercased()
        if upper.hasSuffix("PM") || upper.hasSuffix("P.M.") { meridiem = true }
        if upper.hasSuffix("AM") || upper.hasSuffix("A.M.") { meridiem = false }
        if meridiem != nil {
            clock = clock.prefix(while: { $0.isNumber || $0 == ":" || $0 == "." || $0 == "," })
        }
        let fields = clock.split(separator: ":")
        guard fields.count >= 2, fields.count <= 3, var hour = Int(fields[0]), let minute = Int(fields[1]),
            hour < 24, minute < 60
        else { return nil }
        var seconds = 0.0
        if fields.count == 3 {
            guard let parsed = Double(fields[2].replacingOccurrences(of: ",", with: ".")), parsed < 61 else {
                return nil
            }
            seconds = parsed
        }
        if let isAfternoon = meridiem {
            guard hour >= 1, hour <= 12 else { return nil }
            hour = hour % 12 + (isAfternoon ? 12 : 0)
        }
        return Double(hour * 3600 + minute * 60) + seconds
    }

    /// The instant of `text` on the local day of `start`, the day after when it would fall before
    /// the start (a list that crosses midnight).
    static func resolve(_ text: String, onDayOf start: ExportTimestamp) -> Double? {
        guard let timeOfDay = secondsSinceMidnight(text) else { return nil }
        let offset = Int64(start.utcOffsetSeconds)
        let local = start.secondsSince1970 + offset
        let localMidnight = Double(local - ((local % 86_400) + 86_400) % 86_400)
        var instant = localMidnight + timeOfDay - Double(offset)
        if instant < Double(start.secondsSince1970) - 1 { instant += 86_400 }
        return instant
    }
}

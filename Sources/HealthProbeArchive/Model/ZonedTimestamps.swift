import AppleHealthExport
import Foundation

/// Writes instants as ISO 8601 local times with their offset in one time zone
/// (`2000-01-01T09:00:00+09:00`). Looking an offset up costs a time zone database query, so it
/// remembers the span between two transitions that the last instant fell in: records come in
/// date order within a type, and nearly every instant falls in the span before.
package struct ZonedTimestamps {
    package let zone: TimeZone
    private var spanStart = Double.infinity
    private var spanEnd = -Double.infinity
    private var offset = 0

    package init(zone: TimeZone) {
        self.zone = zone
        if zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: -1e11)) == nil {
            // A fixed zone (UTC, +09:00): one span for every instant.
            spanStart = -Double.infinity
            spanEnd = Double.infinity
            offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))
        }
    }

    /// The offset from UTC, in seconds, at `seconds` since 1970.
    package mutating func offset(at seconds: Double) -> Int {
        if seconds >= spanStart && seconds < spanEnd { return offset }
        let date = Date(timeIntervalSince1970: seconds)
        offset = zone.secondsFromGMT(for: date)
        spanStart = seconds
        spanEnd = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? Double.infinity
        return offset
    }

    /// The last local day written, as `2000-01-01T`: most dates of an export share their day
    /// with the one before.
    private var cachedDay: Int64 = .min
    private var cachedDayText: [UInt8] = []

    package mutating func append(_ seconds: Double, to text: inout [UInt8]) {
        let offset = offset(at: seconds)
        let local = seconds + Double(offset)
        let whole = local.rounded(.down)
        let day = Int64((whole / 86_400).rounded(.down))
        if day != cachedDay {
            cachedDayText.removeAll(keepingCapacity: true)
            UTCText.appendISO8601(seconds: Double(day * 86_400), to: &cachedDayText)
            cachedDayText.removeLast(9)  // "00:00:00Z"
            cachedDay = day
        }
        text.append(contentsOf: cachedDayText)
        let secondOfDay = Int(Int64(whole) - day * 86_400)
        Self.appendTwoDigits(secondOfDay / 3600, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.appendTwoDigits(secondOfDay / 60 % 60, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.appendTwoDigits(secondOfDay % 60, to: &text)
        if local - whole > 0.0000005 {
            // Sub-second instants (the live path): as UTCText writes them.
            var fraction: [UInt8] = []
            UTCText.appendISO8601(seconds: local - whole, to: &fraction)
            text.append(contentsOf: fraction[19..<(fraction.count - 1)])
        }
        let magnitude = abs(offset) / 60
        text.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        Self.appendTwoDigits(magnitude / 60, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.appendTwoDigits(magnitude % 60, to: &text)
    }

    package mutating func text(_ seconds: Double) -> String {
        var bytes: [UInt8] = []
        append(seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendTwoDigits(_ value: Int, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        text.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

extension UTCText {
    /// Reads back what ``iso8601(seconds:)`` writes (`2000-01-01T00:00:00Z`, with or without a
    /// fraction); nil for anything else.
    package static func parseISO8601(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), let digits = number(20..<(bytes.count - 1)) else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) + fraction
    }
}

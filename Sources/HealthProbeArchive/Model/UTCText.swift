import AppleHealthExport
import Foundation

/// UTC renderings of instants.
public enum UTCText {
    /// `2000-01-01T00:00:00Z`.
    public static func iso8601(_ timestamp: AppleExportTimestamp) -> String {
        iso8601(seconds: Double(timestamp.secondsSince1970))
    }

    /// `2000-01-01T00:00:00Z`, with fractional seconds only when there are any.
    public static func iso8601(_ date: Date) -> String {
        iso8601(seconds: date.timeIntervalSince1970)
    }

    /// `2000-01-01T00:00:00Z`, with fractional seconds only when there are any.
    public static func iso8601(seconds: Double) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(32)
        appendISO8601(seconds: seconds, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``iso8601(seconds:)``, appended to UTF-8 text.
    static func appendISO8601(seconds: Double, to text: inout [UInt8]) {
        let whole = Int64(seconds.rounded(.down))
        let (days, secondOfDay) = CivilCalendar.day(ofSeconds: whole)
        appendDay(days, to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, 2, to: &text)
        let fraction = seconds - Double(whole)
        if fraction > 0.0000005 {
            text.append(UInt8(ascii: "."))
            appendPadded(Int((fraction * 1_000_000).rounded()), 6, to: &text)
            while text.last == UInt8(ascii: "0") { text.removeLast() }
        }
        text.append(UInt8(ascii: "Z"))
    }

    /// `2000-01-01`.
    public static func day(_ daysSince1970: Int64) -> String {
        var text: [UInt8] = []
        appendDay(daysSince1970, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDay(_ daysSince1970: Int64, to text: inout [UInt8]) {
        let date = CivilCalendar.date(daysSince1970: daysSince1970)
        appendPadded(date.year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.day, 2, to: &text)
    }

    /// The decimal digits of `value`, zeros before them up to `width`.
    private static func appendPadded(_ value: Int, _ width: Int, to text: inout [UInt8]) {
        guard value >= 0 else {
            // Years before 1 BC only; written as they always were, zeros before the sign.
            let digits = String(value).utf8
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
            return text.append(contentsOf: digits)
        }
        var digits = 1
        var scale = 1
        while scale <= value / 10 {
            scale *= 10
            digits += 1
        }
        if digits < width { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        var rest = value
        while scale > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / scale))
            rest %= scale
            scale /= 10
        }
    }
}

import Foundation

/// Resolves the locale-formatted times of day of heart-rate-variability beats
/// (`11:26:02.34 AM`, `23:26:02,34`) against the parent record's start.
enum TimeOfDay {
    /// Seconds since midnight, or nil when the text is not a time of day.
    static func secondsSinceMidnight(_ text: String) -> Double? {
        // Beats come by the dozen per record: the usual shapes are read on the bytes, anything
        // else by the general reading below, which gives the same result for the usual shapes.
        if let seconds = commonShape(text) { return seconds }
        return anyShape(text)
    }

    private static let meridiems: [(suffix: [UInt8], isAfternoon: Bool)] = [
        (Array("AM".utf8), false), (Array("PM".utf8), true), (Array("A.M.".utf8), false), (Array("P.M.".utf8), true),
    ]

    /// `H:MM:SS.ss` or `H:MM:SS,ss` (seconds and fraction optional), then optionally a space (or
    /// a narrow no-break space) and `AM`, `PM`, `A.M.` or `P.M.` in any case; ASCII only.
    static func commonShape(_ text: String) -> Double? {
        var utf8 = Array(text.utf8)
        var meridiem: Bool?
        for (suffixBytes, isAfternoon) in meridiems {
            if utf8.count > suffixBytes.count,
                zip(utf8.suffix(suffixBytes.count), suffixBytes).allSatisfy({ $0 & 0xDF == $1 || $0 == $1 })
            {
                meridiem = isAfternoon
                utf8.removeLast(suffixBytes.count)
                if utf8.last == UInt8(ascii: " ") {
                    utf8.removeLast()
                } else if utf8.suffix(3).elementsEqual([0xE2, 0x80, 0xAF]) {
                    utf8.removeLast(3)
                }
                break
            }
        }
        func number(_ range: Range<Int>) -> Int? {
            guard (1...2).contains(range.count), utf8[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return utf8[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let firstColon = utf8.firstIndex(of: UInt8(ascii: ":")), var hour = number(0..<firstColon),
            firstColon + 3 <= utf8.count, let minute = number((firstColon + 1)..<(firstColon + 3)), hour < 24,
            minute < 60
        else { return nil }
        var seconds = 0.0
        if firstColon + 3 < utf8.count {
            let rest = utf8[(firstColon + 3)...]
            guard rest.first == UInt8(ascii: ":"), rest.count >= 3, rest.count <= 15,
                number((rest.startIndex + 1)..<(rest.startIndex + 3)) != nil
            else { return nil }
            let secondText = rest.dropFirst().map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }
            guard secondText.count == 2 || (secondText[2] == UInt8(ascii: ".") && secondText.count > 3),
                secondText.dropFirst(3).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let parsed = Double(String(decoding: secondText, as: UTF8.self)), parsed < 61
            else { return nil }
            seconds = parsed
        }
        if let isAfternoon = meridiem {
            guard hour >= 1, hour <= 12 else { return nil }
            hour = hour % 12 + (isAfternoon ? 12 : 0)
        }
        return Double(hour * 3600 + minute * 60) + seconds
    }

    /// Any shape the locales write; slower.
    static func anyShape(_ text: String) -> Double? {
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
    static func resolve(_ text: String, onDayOf start: AppleExportTimestamp) -> Double? {
        guard let timeOfDay = secondsSinceMidnight(text) else { return nil }
        let offset = Int64(start.utcOffsetSeconds)
        let local = start.secondsSince1970 + offset
        let localMidnight = Double(local - ((local % 86_400) + 86_400) % 86_400)
        var instant = localMidnight + timeOfDay - Double(offset)
        if instant < Double(start.secondsSince1970) - 1 { instant += 86_400 }
        return instant
    }
}

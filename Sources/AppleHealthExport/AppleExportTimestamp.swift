/// An instant read from an export, with the UTC offset it was written at.
///
/// Apple writes every timestamp of one export at the exporting device's offset at export time,
/// so the same sample reads `+0100` in one export and `-0700` in another. Compare
/// ``secondsSince1970`` (the UTC instant), never the text.
public struct AppleExportTimestamp: Sendable, Hashable, Comparable {
    /// The instant, in seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSince1970: Int64
    /// The offset from UTC the timestamp was written at, in seconds (`-0700` is -25200).
    public var utcOffsetSeconds: Int32

    public init(secondsSince1970: Int64, utcOffsetSeconds: Int32) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm`, the only timestamp form Apple writes; nil otherwise.
    public init?(exportText text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// Parses a timestamp from UTF-8 bytes without allocating.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> AppleExportTimestamp? {
        // 0123456789012345678901234
        // 2000-01-01 00:00:00 +0000
        guard bytes.count == 25,
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: " ")
        else { return nil }
        guard let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2),
            let day = digits(bytes, 8, 2), let hour = digits(bytes, 11, 2),
            let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2),
            let offsetHours = digits(bytes, 21, 2), let offsetMinutes = digits(bytes, 23, 2)
        else { return nil }
        let sign = bytes[20]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60
        else { return nil }
        var offset = Int32(offsetHours * 3600 + offsetMinutes * 60)
        if sign == UInt8(ascii: "-") { offset = -offset }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return AppleExportTimestamp(secondsSince1970: local - Int64(offset), utcOffsetSeconds: offset)
    }

    @inline(__always)
    private static func digits(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}

/// Proleptic Gregorian calendar arithmetic on whole days, in UTC.
public enum CivilCalendar {
    /// Days from 1970-01-01 to the given date (negative before it).
    /// The day (counted from 1970-01-01) a count of seconds since 1970 falls on, rounding down
    /// before 1970 too (Swift's division rounds toward zero), and the second of that day.
    public static func day(ofSeconds seconds: Int64) -> (day: Int64, secondOfDay: Int) {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (day, Int(seconds - day * 86_400))
    }

    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        // Howard Hinnant's days_from_civil.
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number counted from 1970-01-01.
    public static func date(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}

extension AppleExportTimestamp {
    /// Appends `yyyy-MM-dd HH:mm:ss ±hhmm`, the form ``parse(_:)`` reads, for an instant (whole
    /// seconds) written at an offset.
    public static func appendText(seconds: Int64, offsetSeconds: Int, to text: inout [UInt8]) {
        let local = seconds + Int64(offsetSeconds)
        let (days, secondOfDay) = CivilCalendar.day(ofSeconds: local)
        let (year, month, day) = CivilCalendar.date(daysSince1970: days)
        appendDigits(year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendDigits(month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendDigits(day, 2, to: &text)
        text.append(UInt8(ascii: " "))
        appendDigits(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, 2, to: &text)
        text.append(UInt8(ascii: " "))
        text.append(offsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let minutes = abs(offsetSeconds) / 60
        appendDigits(minutes / 60, 2, to: &text)
        appendDigits(minutes % 60, 2, to: &text)
    }

    /// The text ``appendText(seconds:offsetSeconds:to:)`` writes for this timestamp.
    public var exportText: String {
        var text: [UInt8] = []
        Self.appendText(seconds: secondsSince1970, offsetSeconds: Int(utcOffsetSeconds), to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDigits(_ value: Int, _ width: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var remaining = max(value, 0)
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
            remaining %= divisor
            divisor /= 10
        }
    }
}

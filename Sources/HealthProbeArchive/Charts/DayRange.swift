import AppleHealthExport

/// Consecutive days, both ends included, numbered from 1970-01-01: the local days of the zone
/// the asker names (each use says which; UTC days when it names none). The period a chart shows.
public struct DayRange: Sendable, Equatable, Hashable, Codable {
    /// Days since 1970-01-01.
    public var first: Int64
    public var last: Int64

    /// The longest period a chart is asked for: a century.
    public static let longest = 36_525

    public init(first: Int64, last: Int64) {
        self.first = min(first, last)
        self.last = max(first, last)
    }

    /// From two `YYYY-MM-DD` dates, either order; nil for anything else (or a period over a century).
    public init?(from: String, to: String) {
        guard let first = Self.day(from), let last = Self.day(to) else { return nil }
        self.init(first: first, last: last)
        guard count <= Self.longest else { return nil }
    }

    public var count: Int { Int(last - first + 1) }
    public var firstDate: String { UTCText.day(first) }
    public var lastDate: String { UTCText.day(last) }

    public func contains(_ day: Int64) -> Bool { day >= first && day <= last }

    /// The same length, `days` later (earlier when negative).
    public func shifted(by days: Int64) -> DayRange { DayRange(first: first + days, last: last + days) }

    /// `count` days ending at `last`.
    public static func ending(at last: Int64, count: Int) -> DayRange {
        DayRange(first: last - Int64(max(1, count)) + 1, last: last)
    }

    /// A `YYYY-MM-DD` date as days since 1970-01-01; nil unless it is one, between years 1 and 9999.
    public static func day(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year)
        else { return nil }
        return CivilCalendar.daysSince1970(year: year, month: month, day: day)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// How many days one mark of a chart covers: one, or whole weeks when the period is long, so that
/// a chart has at most the marks its face has room for (the face says how many).
public enum ChartBinning {
    public static func daysPerMark(for range: DayRange, maximumMarks: Int) -> Int {
        precondition(maximumMarks > 0, "a chart has room for at least one mark")
        guard range.count > maximumMarks else { return 1 }
        let weeks = (range.count + 7 * maximumMarks - 1) / (7 * maximumMarks)
        return 7 * weeks
    }

    /// The first day of the mark that holds `day`.
    static func markStart(of day: Int64, in range: DayRange, daysPerMark: Int) -> Int64 {
        range.first + (day - range.first) / Int64(daysPerMark) * Int64(daysPerMark)
    }

    /// Every mark's first day, oldest first.
    static func markStarts(in range: DayRange, daysPerMark: Int) -> [Int64] {
        Array(stride(from: range.first, through: range.last, by: daysPerMark))
    }
}

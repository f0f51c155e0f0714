import AppleHealthExport
import Foundation

/// A calendar day, counted from 1970-01-01 (day 0): the person's local day a sample belongs to.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let number: Int64

    public init(_ number: Int64) { self.number = number }

    /// "2000-01-01"; nil for text that is not such a date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count == 2, parts[2].count == 2, let year = Int64(parts[0]),
            let month = Int64(parts[1]), let day = Int64(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = Self.days(year: year, month: month, day: day)
        guard Self(number).civil == (year, month, day) else { return nil }
        self.number = number
    }

    public static func < (left: LocalDay, right: LocalDay) -> Bool { left.number < right.number }

    public func adding(_ days: Int64) -> LocalDay { LocalDay(number + days) }

    /// The ISO text, as the graph's `date(...)` takes it.
    public var description: String {
        let (year, month, day) = civil
        let yearText = year < 0 ? "-" + String(-year).leftPadded(4) : String(year).leftPadded(4)
        return "\(yearText)-\(String(month).leftPadded(2))-\(String(day).leftPadded(2))"
    }

    /// ISO weekday: Monday 1 … Sunday 7 (1970-01-01 was a Thursday).
    public var isoWeekday: Int {
        Int(((number + 3) % 7 + 7) % 7) + 1
    }

    /// "Monday" … "Sunday", as HealthGraphSync's `day_of_week` reads (English, whatever the locale).
    public var weekdayName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][isoWeekday - 1]
    }

    /// The ISO 8601 week this day is in: its year (which can differ from the day's at the turn
    /// of the year), number and Monday.
    public var isoWeek: ISOWeek {
        let monday = adding(-Int64(isoWeekday - 1))
        let thursday = monday.adding(3)
        let year = thursday.civil.year
        let firstOfYear = Self.days(year: year, month: 1, day: 1)
        let number = Int((thursday.number - firstOfYear) / 7) + 1
        return ISOWeek(year: Int(year), number: number, monday: monday)
    }

    /// Year, month and day of the proleptic Gregorian calendar.
    var civil: (year: Int64, month: Int64, day: Int64) {
        let (year, month, day) = CivilCalendar.date(daysSince1970: number)
        return (Int64(year), Int64(month), Int64(day))
    }

    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilCalendar.daysSince1970(year: Int(year), month: Int(month), day: Int(day))
    }
}

/// An ISO 8601 week: `iso` is "2024-W03", the `Week` node's key.
public struct ISOWeek: Hashable, Sendable {
    public let year: Int
    public let number: Int
    public let monday: LocalDay

    public var iso: String { "\(year)-W\(String(number).leftPadded(2))" }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

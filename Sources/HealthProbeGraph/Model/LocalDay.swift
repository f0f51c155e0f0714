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

    /// Year, month and day of the proleptic Gregorian calendar (Howard Hinnant's civil_from_days).
    var civil: (year: Int64, month: Int64, day: Int64) {
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a civil date (Howard Hinnant's days_from_civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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

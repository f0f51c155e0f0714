import Foundation

/// Local days of one time zone as spans of instants: a day begins at its local midnight and is
/// 23, 24 or 25 hours long (daylight saving time). Days are numbered from 1970-01-01.
public struct LocalDays {
    public let zone: TimeZone
    private var starts: [Int64: Double] = [:]
    /// The span between two transitions the last instant fell in: a year of samples asks the
    /// time zone database twice, not once an hour.
    private var offsets: ZonedTimestamps

    public init(zone: TimeZone) {
        self.zone = zone
        offsets = ZonedTimestamps(zone: zone)
    }

    /// The zone's offset from UTC at an instant (seconds since 1970).
    public mutating func offset(at instant: Double) -> Double {
        Double(offsets.offset(at: instant))
    }

    /// The local day an instant falls on.
    public mutating func day(of instant: Double) -> Int64 {
        Int64(((instant + offset(at: instant)) / 86_400).rounded(.down))
    }

    /// The instant the local day begins: the earliest instant whose local day it is (after a
    /// change at midnight that skips it, the change itself).
    public mutating func start(of day: Int64) -> Double {
        if let known = starts[day] { return known }
        let midnight = Double(day) * 86_400
        let candidates = [midnight - 14 * 3600, midnight + 14 * 3600].map {
            midnight - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)))
        }
        let start = candidates.filter { self.day(of: $0) == day }.min() ?? candidates[0]
        starts[day] = start
        return start
    }

    /// The instants of a local day: from its start to the next day's.
    public mutating func span(of day: Int64) -> Range<Double> {
        start(of: day)..<start(of: day + 1)
    }
}

/// Quarter hours since 1970, the grain every local day is made of: every zone's offset from UTC
/// is a whole number of them, so counts read from SQLite by quarter hour add up to exact local
/// days of any zone, and a year of one type is some thirty thousand rows, not its records.
enum LocalQuarters {
    /// A column of instants as quarter hours in SQL, rounded down: `CAST` rounds toward zero, so
    /// the instant is shifted past the epoch by a whole number of days first (as ``UTCDay/sql(_:)``).
    static func sql(_ column: String) -> String {
        "(CAST((\(column) + 86400000000) / 900 AS INTEGER) - 96000000)"
    }

    /// The first instant of a quarter hour.
    static func start(_ quarter: Int64) -> Double { Double(quarter) * 900 }
}

extension LocalDays {
    /// The local day a quarter hour falls on.
    mutating func day(ofQuarter quarter: Int64) -> Int64 { day(of: LocalQuarters.start(quarter)) }

    /// The instants of a period of local days: from the first one's start to the start of the
    /// day after the last.
    public mutating func span(of range: DayRange) -> Range<Double> {
        start(of: range.first)..<start(of: range.last + 1)
    }
}

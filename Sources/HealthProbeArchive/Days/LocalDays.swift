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

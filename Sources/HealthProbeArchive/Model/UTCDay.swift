import Foundation

extension UTCText {
    /// The UTC day of a date, `2000-01-01`.
    public static func day(of date: Date) -> String { day(UTCDay.of(date.timeIntervalSince1970)) }
}

/// Whole UTC days of timestamps, rounded down as the day bins are.
enum UTCDay {
    static func of(_ seconds: Double) -> Int64 { Int64((seconds / 86_400).rounded(.down)) }

    /// The same in SQL: `CAST` rounds toward zero, so the column is shifted past the epoch by a
    /// whole number of days (about 2,700 years) first, and the days taken off again.
    static func sql(_ column: String) -> String {
        "(CAST((\(column) + 86400000000) / 86400 AS INTEGER) - 1000000)"
    }
}

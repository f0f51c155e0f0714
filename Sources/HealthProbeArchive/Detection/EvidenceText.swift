import Foundation

/// How evidence values are written: plain text for people, stable for scripts.
public enum EvidenceText {
    /// `step count` → `Step count`: text that starts a sentence or a line.
    public static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// "Source A: 3, Source B: 1", largest first.
    static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key): \($0.value)" }
            .joined(separator: ", ")
    }

    /// "2000-01-01 – 2000-01-09" (days since 1970-01-01 of the zone the days are in), or one day.
    static func dayRange(_ first: Int64, _ last: Int64) -> String {
        first == last ? UTCText.day(first) : "\(UTCText.day(first)) – \(UTCText.day(last))"
    }

    /// The UTC days, sorted, runs of consecutive days joined ("2000-01-01–2000-01-03, 2000-01-07");
    /// at most `limit` runs, then how many more.
    static func days(_ days: Set<Int64>, limit: Int = 20) -> String {
        var runs: [(Int64, Int64)] = []
        for day in days.sorted() {
            if let last = runs.last, last.1 + 1 == day {
                runs[runs.count - 1].1 = day
            } else {
                runs.append((day, day))
            }
        }
        var parts = runs.prefix(limit).map { run in
            run.0 == run.1 ? UTCText.day(run.0) : "\(UTCText.day(run.0))–\(UTCText.day(run.1))"
        }
        if runs.count > limit { parts.append("and \(runs.count - limit) more runs") }
        return parts.joined(separator: ", ")
    }

    /// "35 days 2 hours", "7 hours 30 minutes", "3 hours", "12 minutes": to the minute under a day
    /// (half an hour is no rounding to leave out), to the hour beyond.
    static func duration(_ seconds: Double) -> String {
        let minutesInAll = Int((abs(seconds) / 60).rounded())
        let days = minutesInAll / 1_440
        let hours = minutesInAll % 1_440 / 60
        let minutes = minutesInAll % 60
        func plural(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
        if days > 0 { return hours > 0 ? "\(plural(days, "day")) \(plural(hours, "hour"))" : plural(days, "day") }
        if hours > 0 {
            return minutes > 0 ? "\(plural(hours, "hour")) \(plural(minutes, "minute"))" : plural(hours, "hour")
        }
        return plural(minutes, "minute")
    }

    /// A share as a percentage with one decimal ("12.5").
    static func percent(_ share: Double) -> String {
        String(format: "%.1f", share * 100)
    }

    /// "1,234".
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = number < 0 ? "-" : ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return result
    }

    /// "3 heart rate records".
    static func records(_ count: Int, of sampleType: String) -> String {
        "\(grouped(count)) \(HealthKitCatalog.displayName(of: sampleType)) record\(count == 1 ? "" : "s")"
    }
}

import Foundation
import HealthProbeKit

/// Reads what people type for an export's types and dates.
enum ExportArguments {
    enum Problem: Error, Equatable, LocalizedError {
        case unknownType(String, closeMatches: [String])
        case badDate(String)
        case fromAfterTo

        var errorDescription: String? {
            switch self {
            case .unknownType(let name, let matches):
                matches.isEmpty
                    ? "unknown type '\(name)'; `healthprobe status` lists the archive's types"
                    : "unknown type '\(name)'; did you mean \(matches.joined(separator: " or "))?"
            case .badDate(let text):
                "cannot read the date '\(text)'; write 2000-01-31 or 2000-01-31T08:00:00+01:00"
            case .fromAfterTo: "--from is after --to"
            }
        }
    }

    /// The identifier a name stands for, among `known`: the identifier itself, or its name
    /// without HealthKit's prefix in any case and spelling (`HeartRate`, `heart-rate`, `heart rate`).
    static func resolveType(_ name: String, known: [String]) throws(Problem) -> String {
        let wanted = normalized(name)
        if let exact = known.first(where: {
            $0 == name || normalized(HealthKitCatalog.shortName(of: $0)) == wanted || normalized($0) == wanted
        }) {
            return exact
        }
        let limit = max(2, wanted.count / 3)
        var scored: [(identifier: String, distance: Int)] = []
        for identifier in known {
            let short = normalized(HealthKitCatalog.shortName(of: identifier))
            let score = distance(short, wanted)
            if score <= limit || short.contains(wanted) { scored.append((identifier, score)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.identifier < $1.identifier }
        throw .unknownType(name, closeMatches: scored.prefix(3).map { $0.identifier })
    }

    /// `2000-01-31` (the start of that day in `zone`, or of the next day when `endOfDay`), or a
    /// full ISO 8601 date with its offset.
    static func instant(_ text: String, zone: TimeZone, endOfDay: Bool = false) throws(Problem) -> Double {
        let parts = text.split(separator: "-")
        if text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                calendar.component(.day, from: start) == day
            else { throw .badDate(text) }
            let result = endOfDay ? calendar.date(byAdding: .day, value: 1, to: start) ?? start : start
            return result.timeIntervalSince1970
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        throw .badDate(text)
    }

    private static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

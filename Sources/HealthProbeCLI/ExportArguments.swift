import Foundation
import HealthProbeArchive
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
                    : "unknown type '\(name)'; did you mean \(ExportArguments.either(matches.map { HealthKitCatalog.shortName(of: $0) }))?"
            case .badDate(let text):
                "cannot read the date '\(text)'; write 2000-01-31 or 2000-01-31T08:00:00+01:00"
            case .fromAfterTo: "--from is after --to"
            }
        }
    }

    /// "A", "A or B", "A, B or C": the names `--type` and `--types` take, short as people type them.
    static func either(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The identifier a name stands for, among `known` (``SampleTypeNames``: the identifier, its
    /// name in any case and spelling, or a word people use such as `steps`).
    static func resolveType(_ name: String, known: [String]) throws(Problem) -> String {
        switch SampleTypeNames.resolve(name, among: known) {
        case .found(let identifier): return identifier
        case .unknown(let nearest): throw .unknownType(name, closeMatches: nearest)
        }
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
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// A period's days as the graph sync summarises them — steps, distance, energy, heart rate, sleep
/// hours, workouts… each sample counted once (exact copies, and one sample from two sources) —
/// for every face that shows a day's figures: one definition, the graph's and the assistant's.
public enum DaySummaries {
    /// The days from `first` to `last` (local days of `timeZone`, or of a record's own
    /// `HKTimeZone`) that hold anything.
    public static func read(
        _ store: ArchiveStore, from first: LocalDay, to last: LocalDay, timeZone: TimeZone
    ) throws -> [DayContent] {
        try store.readGraphSource { source in
            var reader = try ArchiveDayReader(source, clock: LocalDayClock(defaultZone: timeZone))
            var contents: [LocalDay: DayContent] = [:]
            try reader.read(first...last, from: source, into: &contents)
            return contents.values.filter(\.hasData).sorted { $0.day < $1.day }
        }
    }
}

extension CypherValue {
    /// The value as plain JSON-ready data: numbers, text, lists, objects; nil for null.
    public var plain: PlainValue? {
        switch self {
        case .null: nil
        case .bool(let value): .bool(value)
        case .integer(let value): .number(Double(value))
        case .float(let value): .number(value)
        case .string(let value), .dateTime(let value): .text(value)
        case .list(let values): .list(values.compactMap(\.plain))
        case .map(let pairs):
            .object(Dictionary(pairs.compactMap { key, value in value.plain.map { (key, $0) } }) { first, _ in first })
        }
    }
}

/// A graph value outside the graph.
public indirect enum PlainValue: Sendable, Equatable, Encodable {
    case bool(Bool)
    case number(Double)
    case text(String)
    case list([PlainValue])
    case object([String: PlainValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .list(let values): try container.encode(values)
        case .object(let pairs): try container.encode(pairs)
        }
    }
}

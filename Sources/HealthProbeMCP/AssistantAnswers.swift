import Foundation
import HealthProbeArchive
import HealthProbeGraph
import HealthProbeKit
import MCP

/// A tool's question the archive cannot answer as asked, said to the assistant in one line.
struct AssistantProblem: Error {
    var message: String
}

/// Answers the tools from the archive, read-only: the same kit calls the command line and the
/// dashboard make, shaped for a model (dates ISO 8601, types named both ways).
struct AssistantAnswers {
    let store: ArchiveStore
    let revealValues: Bool

    /// A tool's answer: as structured content, and as the same JSON in text (one encoding for both).
    struct Answer: Sendable {
        var structured: Value
        var text: String
    }

    /// The answer of the tool named `tool` to `arguments` (checked against its schema already).
    func answer(_ tool: String, _ arguments: [String: Value]) throws -> Answer {
        guard let named = AssistantTools.named(tool) else {
            throw AssistantProblem(message: "there is no tool \(ToolArguments.shown(tool))")
        }
        return try named.answer(arguments, from: self)
    }

    // MARK: Pieces

    /// `time_zone`, else the zone the user chose for every face (`healthprobe settings
    /// --time-zone`), else this computer's.
    func timeZone(_ arguments: [String: Value]) throws -> (name: String, zone: TimeZone) {
        let name = try arguments["time_zone"]?.stringValue ?? store.dayZone().identifier
        guard let zone = TimeZone(identifier: name) else {
            throw AssistantProblem(
                message: "no time zone \(UntrustedText.field(name)); give an IANA name such as Europe/Paris")
        }
        return (name, zone)
    }

    /// A graph node's properties as an object, nulls left out.
    static func plainObject(_ pairs: [(String, CypherValue)]) -> [String: PlainValue] {
        Dictionary(pairs.compactMap { key, value in value.plain.map { (key, $0) } }) { first, _ in first }
    }

    /// Each open anomaly (of `type`) with exactly the local days its records fall on.
    func openAnomalyDays(of type: String?, zone: TimeZone) throws -> [(id: Int64, days: Set<Int64>)] {
        try store.fetchAnomalies().filter { type == nil || $0.sampleType == type }.map { anomaly in
            (anomaly.id, try store.fetchAnomalyDaySet(id: anomaly.id, zone: zone))
        }
    }

    func typeAndRange(_ arguments: [String: Value], longest: Int) throws -> (String, DayRange) {
        guard let name = arguments["sample_type"]?.stringValue else {
            throw AssistantProblem(message: "give a sample_type")
        }
        let range = try period(arguments)
        guard range.count <= longest else { throw Self.tooLong(longest) }
        return (try resolveType(name), range)
    }

    /// `from` and `to`, with what is wrong said as it is: which is missing or not a date, or a
    /// period of more than a century.
    func period(_ arguments: [String: Value]) throws -> DayRange {
        var days: [Int64] = []
        for name in ["from", "to"] {
            guard let text = arguments[name]?.stringValue else {
                throw AssistantProblem(message: "give \(name), a day as YYYY-MM-DD")
            }
            guard let day = DayRange.day(text) else {
                throw AssistantProblem(
                    message: "\(name) \(UntrustedText.field(text)) is not a day; give it as YYYY-MM-DD (2000-01-31)")
            }
            days.append(day)
        }
        guard days[0] <= days[1] else {
            throw AssistantProblem(
                message:
                    "from \(UTCText.day(days[0])) is after to \(UTCText.day(days[1])); give the earlier day as from")
        }
        let range = DayRange(first: days[0], last: days[1])
        guard range.count <= DayRange.longest else {
            throw AssistantProblem(message: "from and to are more than a century apart")
        }
        return range
    }

    /// A HealthKit identifier or a name people use (`StepCount`, `steps`, `heart_rate`, `Sleep`),
    /// among the types the archive holds (``SampleTypeNames``); else the nearest it holds.
    func resolveType(_ name: String) throws -> String {
        switch SampleTypeNames.resolve(name, among: try store.knownSampleTypes()) {
        case .found(let identifier): return identifier
        case .unknown(let nearest): throw Self.noType(name, nearest: nearest)
        }
    }

    /// A name that fits no type, with the nearest the archive holds.
    static func noType(_ name: String, nearest: [String]) -> AssistantProblem {
        guard !nearest.isEmpty else {
            return AssistantProblem(
                message:
                    "the archive holds no type \(UntrustedText.field(name)); archive_status lists the types it holds")
        }
        let names = nearest.map { "\(HealthKitCatalog.shortName(of: $0)) (\(HealthKitCatalog.displayName(of: $0)))" }
        return AssistantProblem(
            message: "the archive holds no type \(UntrustedText.field(name)); the nearest it holds: "
                + names.joined(separator: ", "))
    }

    /// The day figures' question of `arguments` (``DayQuery``, as `healthprobe day` and the
    /// dashboard read theirs): `from` and `to`, `sample_type` (absent: every type held), and
    /// the zone an answer with values may use (``valueDayZone(_:)``).
    func dayQuery(_ arguments: [String: Value], longest: Int = DayQuery.longest) throws -> DayQuery {
        let range = try period(arguments)
        let (zoneName, _) = try valueDayZone(arguments)
        let type = arguments["sample_type"]?.stringValue
        do {
            return try DayQuery(
                store, from: range.first, to: range.last, type: type, zoneName: zoneName, longest: longest)
        } catch let problem as DayQuery.Problem {
            switch problem {
            case .tooLong(let longest): throw Self.tooLong(longest)
            case .unknownType(let name, let nearest): throw Self.noType(name, nearest: nearest)
            case .backwards, .unknownZone:
                // Said already by `period` and `valueDayZone`, which read them first.
                throw AssistantProblem(message: "from, to or time_zone cannot be read")
            }
        }
    }

    /// A period longer than a tool answers.
    static func tooLong(_ longest: Int) -> AssistantProblem {
        AssistantProblem(
            message: "at most \(EvidenceText.grouped(longest)) days at a time; ask again for a shorter period")
    }

    /// Anything encodable as a tool's answer, dates in ISO 8601, keys sorted, on one line.
    func value<T: Encodable>(_ answer: T) throws -> Answer {
        let json = try ReportJSON.encodeCompact(answer)
        return Answer(structured: try JSONValue.make(from: json), text: String(decoding: json, as: UTF8.self))
    }
}

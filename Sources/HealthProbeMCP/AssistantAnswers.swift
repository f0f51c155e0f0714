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

    func answer(_ tool: String, _ arguments: [String: Value]) throws -> Answer {
        switch tool {
        case "archive_status": return try value(status())
        case "list_anomalies": return try value(anomalies(arguments))
        case "get_anomaly": return try anomaly(arguments)
        case "list_captures": return try value(["captures": try store.fetchCaptures(includingSetAside: true)])
        case "compare_captures": return try comparison(arguments)
        case "daily_summary":
            return arguments["sample_type"] == nil
                ? try value(dayFigures(arguments)) : try value(dailySummary(arguments))
        case "coverage": return try value(coverage(arguments))
        case "get_records": return try value(records(arguments))
        default: throw AssistantProblem(message: "there is no tool \(tool)")
        }
    }

    // MARK: Tools

    struct Status: Encodable {
        struct TypeCount: Encodable {
            var type: String
            var name: String
            var records: Int
            var sources: Int
        }
        var captures: Int
        var lastCapture: CaptureSummary?
        var lastCheckedAt: Date?
        var lastVerifiedAt: Date?
        var recordsHeld: Int
        var types: [TypeCount]
        var openAnomalies: [String: Int]
        var valuesRevealed: Bool
    }

    func status() throws -> Status {
        let overview = try store.fetchOverview()
        let open = try store.fetchAnomalies()
        return Status(
            captures: overview.captures, lastCapture: overview.lastCapture, lastCheckedAt: overview.lastCheckedAt,
            lastVerifiedAt: overview.lastVerifiedAt, recordsHeld: overview.recordsTracked,
            types: overview.types.map {
                Status.TypeCount(
                    type: $0.type, name: HealthKitCatalog.displayName(of: $0.type), records: $0.records,
                    sources: $0.sources)
            },
            openAnomalies: Dictionary(grouping: open, by: \.severity.rawValue).mapValues(\.count),
            valuesRevealed: revealValues)
    }

    struct AnomalyLine: Encodable {
        var id: Int64
        var type: String
        var severity: String
        var sampleType: String
        var typeName: String
        var summary: String
        var recordCount: Int
        var detectedAt: Date
        var captureId: Int64
        var resolved: Bool
    }

    struct AnomalyPage: Encodable {
        var anomalies: [AnomalyLine]
        /// How many match in all: more than listed means ask again with `cursor`.
        var total: Int
        /// What to pass as `cursor` for the next (older) page; nil on the last.
        var nextCursor: Int64?
    }

    func anomalies(_ arguments: [String: Value]) throws -> AnomalyPage {
        var filter = ArchiveStore.AnomalyFilter(includeResolved: arguments["include_resolved"]?.boolValue ?? false)
        if let severity = arguments["severity"]?.stringValue {
            guard let level = Severity(rawValue: severity) else {
                throw AssistantProblem(message: "severity is info, warning or critical")
            }
            filter.minimumSeverity = level
        }
        if let sampleType = arguments["sample_type"]?.stringValue {
            filter.sampleType = try resolveType(sampleType)
        }
        if let type = arguments["anomaly_type"]?.stringValue {
            guard let kind = AnomalyType(rawValue: type) else {
                throw AssistantProblem(
                    message:
                        "no anomaly type \(type); they are \(AnomalyType.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            filter.type = kind
        }
        let limit = max(1, min(arguments["limit"]?.intValue ?? 50, 500))
        let before = arguments["cursor"]?.intValue.map(Int64.init) ?? .max
        let matching = try store.fetchAnomalies(filter).sorted { $0.id > $1.id }
        let older = matching.filter { $0.id < before }
        let found = older.prefix(limit)
        return AnomalyPage(
            anomalies: found.map {
                AnomalyLine(
                    id: $0.id, type: $0.type.rawValue, severity: $0.severity.rawValue, sampleType: $0.sampleType,
                    typeName: HealthKitCatalog.displayName(of: $0.sampleType), summary: $0.summary,
                    recordCount: $0.recordCount, detectedAt: $0.detectedAt, captureId: $0.captureId,
                    resolved: $0.resolved)
            }, total: matching.count, nextCursor: older.count > limit ? found.last?.id : nil)
    }

    struct AnomalyDetail: Encodable {
        var anomaly: Anomaly
        /// The first and last local day of `timeZone` its records start on.
        var affectedDays: [String]?
        var timeZone: String
        var records: [ArchiveStore.AnomalyRecord]
        var recordTotal: Int
        var valuesIncluded: Bool
        var recovery: String?
        var markdown: String
    }

    func anomaly(_ arguments: [String: Value]) throws -> Answer {
        guard let id = arguments["id"]?.intValue else { throw AssistantProblem(message: "give the anomaly's id") }
        guard let report = try store.exportReport(anomalyID: Int64(id), includeValues: revealValues, limit: 50)
        else { throw AssistantProblem(message: "there is no anomaly \(id)") }
        let (zoneName, zone) = try timeZone(arguments)
        let days = try store.fetchAnomalyDays(id: Int64(id), zone: zone).map { [$0.firstDate, $0.lastDate] }
        return try value(
            AnomalyDetail(
                anomaly: report.anomaly, affectedDays: days, timeZone: zoneName, records: report.records,
                recordTotal: report.recordTotal,
                valuesIncluded: report.valuesIncluded, recovery: report.recovery, markdown: report.markdown))
    }

    func comparison(_ arguments: [String: Value]) throws -> Answer {
        guard let from = arguments["from_capture"]?.intValue, let to = arguments["to_capture"]?.intValue else {
            throw AssistantProblem(
                message: "give the ids of two captures, from_capture and to_capture (list_captures lists them)")
        }
        let type = try arguments["sample_type"]?.stringValue.map(resolveType)
        let (_, zone) = try timeZone(arguments)
        guard let comparison = try store.compareCaptures(from: Int64(from), to: Int64(to), byDayOf: type, zone: zone)
        else {
            throw AssistantProblem(message: "there is no such capture; list_captures lists them")
        }
        return try value(comparison)
    }

    /// One day of one type, flat, with what is zero or empty left out: a year is 366 of them,
    /// and every value is a node the SDK decodes again on its way out.
    struct Summary: Encodable {
        var type: String
        var name: String
        var unit: String?
        var timeZone: String
        var days: [Day]
        var daysWithoutRecords: [String]
        var note: String
    }

    /// A day's figures as the graph sync has them, with what the archive cannot vouch for.
    struct DayFigures: Encodable {
        var day: String
        /// `total_steps`, `avg_heart_rate`, `sleep_hours`, `workout_count`, … (only those the day has).
        var figures: [String: PlainValue]
        var sleep: [String: PlainValue]?
        var workouts: [[String: PlainValue]]
        /// Figures left out because they would be one record's value (values not revealed).
        var withheld: [String]?
        /// Open anomalies whose days include this one.
        var anomalies: [Int64]
    }

    struct Figures: Encodable {
        var timeZone: String
        var days: [DayFigures]
        var note: String
    }

    /// Without a type: each day's figures, one definition with the graph sync's.
    func dayFigures(_ arguments: [String: Value]) throws -> Figures {
        let range = try period(arguments)
        // Every relevant sample of every day is read: three months keep an answer under a second.
        guard range.count <= 93 else {
            throw AssistantProblem(
                message: "at most 93 days of figures at a time; ask again for a shorter period, or for one type")
        }
        let (zoneName, zone) = try valueDayZone(arguments)
        let open = try openAnomalyDays(of: nil, zone: zone)
        let days = try DaySummaries.read(store, from: LocalDay(range.first), to: LocalDay(range.last), timeZone: zone)
        let summed = Set(SummaryMetric.all.filter(\.isSummedFigure).map(\.sampleType))
        let partWithheld = try daysWithAPartWithheld(types: summed.sorted(), range: range, zone: zone)
        return Figures(
            timeZone: zoneName,
            days: days.map { content in
                let (figures, withheld) = shown(content, partWithheld: partWithheld)
                return DayFigures(
                    day: content.day.description, figures: figures,
                    sleep: withheld.contains("sleep_hours") ? nil : content.sleepSession.map(Self.plainObject),
                    workouts: content.workouts.map {
                        Self.plainObject($0.properties.filter { revealValues || Self.workoutTimes.contains($0.0) })
                    }, withheld: withheld.isEmpty ? nil : withheld,
                    anomalies: open.filter { $0.days.contains(content.day.number) }.map(\.id))
            },
            note: """
                Figures as the graph sync computes them: each sample once — exact copies, and one sample \
                written by two sources (a Watch and an iPhone), count once; sleep hours are asleep stages only, \
                never in-bed time added. \(
                    revealValues
                    ? ""
                    : "Without revealed values, a figure of fewer than \(Day.minimumSamples) samples, a day's lowest, highest or last reading, a workout's distance and energy, and a summed figure whose Health-app figure withholds a source's part are left out and named in `withheld` (workouts keep their times); days are the user's own. "
                )A day listed with anomalies may lack data the archive once held.
                """)
    }

    /// The longest range whose days without records are listed: a year (each day is counted).
    static let longestListOfEmptyDays = 366

    /// What a workout shows without revealed values: what it was and when.
    static let workoutTimes: Set<String> = [
        "activity_type", "raw_type", "source_name", "device", "start_date", "end_date", "duration_min",
    ]

    /// A day's figures as an answer may give them: all of them when values were revealed; else
    /// none that is one record's value — a figure of fewer than ``Day/minimumSamples`` samples, a
    /// lowest, highest or last reading — and the names of those left out.
    /// A summed figure (steps, energy, sleep) of a day whose Health-app figure withholds a
    /// source's part (`partWithheld`) is left out too.
    func shown(_ content: DayContent, partWithheld: Set<DayType> = []) -> (
        figures: [String: PlainValue], withheld: [String]
    ) {
        let figures = Self.plainObject(content.summary)
        guard !revealValues else { return (figures, []) }
        var withheld: [String] = []
        let kept = figures.filter { property, _ in
            let samples = content.samples(behind: property)
            let metric = SummaryMetric.all.first { $0.property == property }
            let subtracted =
                metric.map {
                    $0.isSummedFigure && partWithheld.contains(DayType(day: content.day.number, type: $0.sampleType))
                } ?? false
            let oneRecord =
                subtracted || DayContent.isOneReading(property)
                || (samples.map { $0 < Day.minimumSamples } ?? false)
            if oneRecord { withheld.append(property) }
            return !oneRecord
        }
        return (kept, withheld.sorted())
    }

    struct Coverage: Encodable {
        struct Loss: Encodable {
            var day: String
            var vanished: Int
        }
        var type: String
        var name: String
        var timeZone: String
        var from: String
        var to: String
        var daysWithoutRecords: [String]
        var daysWithLosses: [Loss]
        var anomalies: [Int64]
        /// Losses whose records all came back: "vanished on these days, back since capture N".
        var recoveredLosses: [Recovered]
    }

    struct Recovered: Encodable {
        var anomaly: Int64
        var days: [String]
        var backSinceCapture: Int64
    }

    func coverage(_ arguments: [String: Value]) throws -> Coverage {
        let (type, range) = try typeAndRange(arguments, longest: 3_660)
        let (zoneName, zone) = try timeZone(arguments)
        // Days without records are listed over a year at most: each day's records are counted.
        var empty: [String] = []
        if range.count <= Self.longestListOfEmptyDays {
            let series = try store.fetchDailySeries(
                DailySeriesRequest(type: type, range: range, zone: zone, maximumMarks: range.count))
            empty = series.days.filter { $0.records == 0 }.map(\.date)
        }
        return Coverage(
            type: type, name: HealthKitCatalog.displayName(of: type), timeZone: zoneName, from: range.firstDate,
            to: range.lastDate,
            daysWithoutRecords: empty,
            daysWithLosses: try store.fetchVanishedPerDay(type: type, range: range, zone: zone).sorted {
                $0.key < $1.key
            }
            .map { Coverage.Loss(day: UTCText.day($0.key), vanished: $0.value) },
            anomalies: try openAnomalyDays(of: type, zone: zone).filter { $0.days.contains { range.contains($0) } }
                .map(\.id),
            recoveredLosses: try store.fetchAnomalies(.init(includeResolved: true, type: .silentDeletion))
                .filter { $0.recovered && $0.sampleType == type }
                .compactMap { anomaly in
                    let days = try store.fetchAnomalyDaySet(id: anomaly.id, zone: zone).filter { range.contains($0) }
                    guard !days.isEmpty, let capture = anomaly.recoveredCapture else { return nil }
                    return Recovered(
                        anomaly: anomaly.id, days: days.sorted().map(UTCText.day), backSinceCapture: capture)
                })
    }

    struct RecordPage: Encodable {
        /// The zone whose days `from` and `to` are.
        var timeZone: String
        var records: [ArchiveStore.RecordSummary]
        /// What to pass as `cursor` for the next page; nil when this page is the last.
        var nextCursor: Int64?
        var valuesIncluded: Bool
    }

    func records(_ arguments: [String: Value]) throws -> RecordPage {
        let (type, range) = try typeAndRange(arguments, longest: 3_660)
        let after = arguments["cursor"]?.intValue.map(Int64.init)
        let limit = max(1, min(arguments["limit"]?.intValue ?? 100, 500))
        let (zoneName, zone) = try timeZone(arguments)
        // One more than asked tells whether there is a next page.
        var found = try store.fetchRecordSummaries(
            type: type, range: range, zone: zone, limit: limit + 1, after: after, values: revealValues)
        let more = found.count > limit
        if more { found.removeLast() }
        return RecordPage(
            timeZone: zoneName, records: found, nextCursor: more ? found.last?.id : nil, valuesIncluded: revealValues)
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
    private static func plainObject(_ pairs: [(String, CypherValue)]) -> [String: PlainValue] {
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
        guard range.count <= longest else {
            throw AssistantProblem(message: "at most \(longest) days at a time; ask again for a shorter period")
        }
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
    private func resolveType(_ name: String) throws -> String {
        switch SampleTypeNames.resolve(name, among: try store.knownSampleTypes()) {
        case .found(let identifier):
            return identifier
        case .unknown(let nearest) where nearest.isEmpty:
            throw AssistantProblem(
                message:
                    "the archive holds no type \(UntrustedText.field(name)); archive_status lists the types it holds")
        case .unknown(let nearest):
            let names = nearest.map {
                "\(HealthKitCatalog.shortName(of: $0)) (\(HealthKitCatalog.displayName(of: $0)))"
            }
            throw AssistantProblem(
                message: "the archive holds no type \(UntrustedText.field(name)); the nearest it holds: "
                    + names.joined(separator: ", "))
        }
    }

    /// Anything encodable as a tool's answer, dates in ISO 8601, keys sorted, on one line.
    private func value<T: Encodable>(_ answer: T) throws -> Answer {
        let json = try ReportJSON.encodeCompact(answer)
        return Answer(structured: try JSONValue.make(from: json), text: String(decoding: json, as: UTF8.self))
    }
}

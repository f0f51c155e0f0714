import HealthProbeArchive
import MCP

/// Where one type's data is missing, as evidence to cite.
enum CoverageTool: AssistantTool {
    static let name = "coverage"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description: """
                Where one type's data is missing: days with no records at all (listed for a period of a \
                year at most), days from which records vanished and are still gone (a proven loss, with how many), and losses whose records all came \
                back (their days, back since which capture), over a period — an evidence packet to cite.
                """,
            inputSchema: object(
                [
                    "sample_type": string(sampleTypeWords), "from": string("First day, YYYY-MM-DD."),
                    "to": string("Last day, YYYY-MM-DD."), "time_zone": string(zoneWords),
                ], required: ["sample_type", "from", "to"]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.value(answers.coverage(arguments))
    }
}

extension AssistantAnswers {
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
}

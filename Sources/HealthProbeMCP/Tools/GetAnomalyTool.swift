import HealthProbeArchive
import MCP

/// One anomaly whole, with its records and a report to cite.
enum GetAnomalyTool: AssistantTool {
    static let name = "get_anomaly"

    static func definition(revealValues: Bool) -> Tool {
        let values = AssistantTools.valueWords(revealValues)
        return Tool(
            name: name,
            description: """
                One anomaly whole: summary, evidence, the days and counts it affects, its records (up to 50; \
                \(values)) and a Markdown report to cite, with how to get lost data back.
                """,
            inputSchema: object(
                ["id": integer("The anomaly's id.", minimum: 1), "time_zone": string(zoneWords)], required: ["id"]),
            annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.anomaly(arguments)
    }
}

extension AssistantAnswers {
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
}

import Foundation
import HealthProbeArchive
import MCP

/// The anomalies found, filtered, a page at a time.
enum ListAnomaliesTool: AssistantTool {
    static let name = "list_anomalies"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description: """
                Problems HealthProbe found, with evidence: silent_deletion (records vanished without a \
                deletion — proven losses), historical_insertion (backfills), duplicate, source_overlap, \
                value_modified, times_modified, divergence, route_changed, document_missing, self_overlap, \
                conflicting_values, unrelated_capture \
                and more. Filter by minimum severity, anomaly type, sample type, and whether resolved ones \
                are included; a page at a time, newest first: pass the answer's `nextCursor` as `cursor`.
                """,
            inputSchema: object([
                "severity": enumeration(["info", "warning", "critical"], "At or above this severity."),
                "anomaly_type": string("An anomaly type, e.g. silent_deletion."),
                "sample_type": string(sampleTypeWords),
                "include_resolved": boolean("Also anomalies the user marked resolved."),
                "limit": integer("At most this many, newest first (default 50).", minimum: 1, maximum: 500),
                "cursor": integer("The previous page's `nextCursor`, for the next (older) page.", minimum: 0),
            ]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.value(answers.anomalies(arguments))
    }
}

extension AssistantAnswers {
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
}

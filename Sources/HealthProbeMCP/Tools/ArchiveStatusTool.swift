import Foundation
import HealthProbeArchive
import MCP

/// The archive's state at a glance: where an assistant starts.
enum ArchiveStatusTool: AssistantTool {
    static let name = "archive_status"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description: """
                The archive's state: how many captures (checks of an Apple Health export, an iPhone backup \
                or the phone itself), the last one, when every record was last verified, per-type record \
                counts, and open anomalies by severity. Start here.
                """, inputSchema: object([:]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.value(answers.status())
    }
}

extension AssistantAnswers {
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
}

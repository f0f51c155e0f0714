import HealthProbeArchive
import MCP

/// One type's records of a period, a page at a time.
enum GetRecordsTool: AssistantTool {
    static let name = "get_records"

    static func definition(revealValues: Bool) -> Tool {
        let values = AssistantTools.valueWords(revealValues)
        return Tool(
            name: name,
            description: """
                Individual records of one type starting in a period of local days, present or gone, a page at \
                a time: pass the answer's `nextCursor` as `cursor` for the next page (none means the last). \
                Times are ISO 8601 in UTC. \(values)
                """,
            inputSchema: object(
                [
                    "sample_type": string(sampleTypeWords), "from": string("First day, YYYY-MM-DD."),
                    "to": string("Last day, YYYY-MM-DD."), "time_zone": string(zoneWords),
                    "limit": integer("At most this many (default 100, at most 500).", minimum: 1, maximum: 500),
                    "cursor": integer("The previous page's `nextCursor`.", minimum: 0),
                ], required: ["sample_type", "from", "to"]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.value(answers.records(arguments))
    }
}

extension AssistantAnswers {
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
}

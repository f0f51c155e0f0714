import MCP

/// What changed between two captures.
enum CompareCapturesTool: AssistantTool {
    static let name = "compare_captures"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description: """
                What changed between two captures: records new and gone by type, or by day for one type, and \
                the anomalies found in between.
                """,
            inputSchema: object(
                [
                    "from_capture": integer("The earlier capture's id (list_captures lists them).", minimum: 1),
                    "to_capture": integer("The later capture's id.", minimum: 1),
                    "sample_type": string("Optional: one type to see by day. " + sampleTypeWords),
                    "time_zone": string(zoneWords),
                ], required: ["from_capture", "to_capture"]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.comparison(arguments)
    }
}

extension AssistantAnswers {
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
}

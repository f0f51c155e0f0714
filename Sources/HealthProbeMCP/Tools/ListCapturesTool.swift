import MCP

/// Every complete capture.
enum ListCapturesTool: AssistantTool {
    static let name = "list_captures"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description:
                "Every complete capture: when, from what (export, backup, phone), records new and gone; one the user set aside (the wrong file) has `setAside` with why, and compares with nothing.",
            inputSchema: object([:]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        try answers.value(["captures": try answers.store.fetchCaptures(includingSetAside: true)])
    }
}

import MCP

/// One tool an assistant is offered, in its own file: its name, what the model is told (a
/// description and a schema written for it to use well: what the tool answers, what it never
/// gives, what its numbers mean), and its answer, read from the archive by ``AssistantAnswers``.
protocol AssistantTool {
    static var name: String { get }
    static func definition(revealValues: Bool) -> Tool
    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer
}

/// The tools, in the order they are listed.
enum AssistantTools {
    static var registered: [any AssistantTool.Type] {
        [
            ArchiveStatusTool.self, ListAnomaliesTool.self, GetAnomalyTool.self, ListCapturesTool.self,
            CompareCapturesTool.self, DailySummaryTool.self, CoverageTool.self, GetRecordsTool.self,
        ]
    }

    static func all(revealValues: Bool) -> [Tool] {
        registered.map { $0.definition(revealValues: revealValues) }
    }

    /// The tool named `name`, if there is one.
    static func named(_ name: String) -> (any AssistantTool.Type)? {
        registered.first { $0.name == name }
    }

    /// What a tool giving records says of their values.
    static func valueWords(_ revealValues: Bool) -> String {
        revealValues
            ? "Values of single records are given (the user started the server with --reveal-values)."
            : "Values of single records are never given: only counts, times and sources."
    }
}

/// The words and schema pieces every tool's definition is made of.
extension AssistantTool {
    static var readOnly: Tool.Annotations {
        Tool.Annotations(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
    }

    /// How every tool with days takes their zone.
    static var zoneWords: String {
        "The IANA time zone whose local days are meant (e.g. Europe/Paris); by default the one the user chose, else the computer's. The answer names it."
    }

    /// How every tool takes a sample type: one name for one thing.
    static var sampleTypeWords: String {
        "A sample type: the HealthKit identifier, its short name (HeartRate, StepCount) or a word people use (steps, sleep, weight, heart_rate)."
    }

    static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }

    static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }

    static func integer(_ description: String, minimum: Int? = nil, maximum: Int? = nil) -> Value {
        var schema: [String: Value] = ["type": "integer", "description": .string(description)]
        if let minimum { schema["minimum"] = .int(minimum) }
        if let maximum { schema["maximum"] = .int(maximum) }
        return .object(schema)
    }

    static func boolean(_ description: String) -> Value {
        .object(["type": "boolean", "description": .string(description)])
    }

    static func enumeration(_ cases: [String], _ description: String) -> Value {
        .object(["type": "string", "enum": .array(cases.map { .string($0) }), "description": .string(description)])
    }
}

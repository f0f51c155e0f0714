import MCP

/// The tools an assistant is offered, with descriptions and schemas written for a model to use
/// well: what each answers, what it never gives, and what its numbers mean.
enum AssistantTools {
    static func all(revealValues: Bool) -> [Tool] {
        let readOnly = Tool.Annotations(
            readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
        let values =
            revealValues
            ? "Values of single records are given (the user started the server with --reveal-values)."
            : "Values of single records are never given: only counts, times and sources."
        return [
            Tool(
                name: "archive_status",
                description: """
                    The archive's state: how many captures (checks of an Apple Health export, an iPhone backup \
                    or the phone itself), the last one, when every record was last verified, per-type record \
                    counts, and open anomalies by severity. Start here.
                    """, inputSchema: object([:]), annotations: readOnly),
            Tool(
                name: "list_anomalies",
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
                ]), annotations: readOnly),
            Tool(
                name: "get_anomaly",
                description: """
                    One anomaly whole: summary, evidence, the days and counts it affects, its records (up to 50; \
                    \(values)) and a Markdown report to cite, with how to get lost data back.
                    """,
                inputSchema: object(
                    ["id": integer("The anomaly's id.", minimum: 1), "time_zone": string(zoneWords)], required: ["id"]),
                annotations: readOnly),
            Tool(
                name: "list_captures",
                description:
                    "Every complete capture: when, from what (export, backup, phone), records new and gone; one the user set aside (the wrong file) has `setAside` with why, and compares with nothing.",
                inputSchema: object([:]), annotations: readOnly),
            Tool(
                name: "compare_captures",
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
                    ], required: ["from_capture", "to_capture"]), annotations: readOnly),
            Tool(
                name: "daily_summary",
                description: """
                    Each local day's figures as the Health app shows them: sources that record the same time are \
                    never added up (each moment from the source highest in the type's order: entered by hand, \
                    Apple Watch, iPhone, other apps), sums spread over each sample's time and split at midnight, \
                    a day's sleep the night that ends on it. Without a type: total_steps, total_distance_km, \
                    active_energy_kcal, avg/min/max_heart_rate, resting_heart_rate, hrv_mean, sleep_hours and the \
                    night's sleep, workouts, with the open anomalies whose records fall on each day (at most 93 \
                    days at a time; without revealed values, a figure that would be one record's value — fewer \
                    than 3 samples, a lowest, highest or last reading, a workout's distance or energy — is left out \
                    and named in `withheld`). With a type (at most 366): per day its total (or hours asleep, or mean), \
                    each source's part and what was left out as overlap, exact copies left out and counted, and \
                    the records that vanished from the day. Values are in the type's unit; percentages in \
                    figures are percentages, in a type's values fractions (0.97 = 97 %).
                    """,
                inputSchema: object(
                    [
                        "sample_type": string("Optional: one type. " + sampleTypeWords),
                        "from": string("First day, YYYY-MM-DD."),
                        "to": string("Last day, YYYY-MM-DD (at most 366 days)."),
                        "time_zone": string(zoneWords),
                    ], required: ["from", "to"]), annotations: readOnly),
            Tool(
                name: "coverage",
                description: """
                    Where one type's data is missing: days with no records at all (listed for a period of a \
                    year at most), days from which records vanished and are still gone (a proven loss, with how many), and losses whose records all came \
                    back (their days, back since which capture), over a period — an evidence packet to cite.
                    """,
                inputSchema: object(
                    [
                        "sample_type": string(sampleTypeWords), "from": string("First day, YYYY-MM-DD."),
                        "to": string("Last day, YYYY-MM-DD."), "time_zone": string(zoneWords),
                    ], required: ["sample_type", "from", "to"]), annotations: readOnly),
            Tool(
                name: "get_records",
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
                    ], required: ["sample_type", "from", "to"]), annotations: readOnly),
        ]
    }

    /// How every tool with days takes their zone.
    static let zoneWords =
        "The IANA time zone whose local days are meant (e.g. Europe/Paris); by default the one the user chose, else the computer's. The answer names it."

    /// How every tool takes a sample type: one name for one thing.
    static let sampleTypeWords =
        "A sample type: the HealthKit identifier, its short name (HeartRate, StepCount) or a word people use (steps, sleep, weight, heart_rate)."

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

import MCP

/// Each local day's figures as the Health app shows them: of one type, with each source's part
/// (``AssistantAnswers/dailySummary(_:)``), or of the day's main types with its night and workouts
/// (``AssistantAnswers/dayFigures(_:)``): one definition, the day figures (docs/DESIGN.md §8a).
enum DailySummaryTool: AssistantTool {
    static let name = "daily_summary"

    static func definition(revealValues: Bool) -> Tool {
        return Tool(
            name: name,
            description: """
                Each local day's figures as the Health app shows them: sources that record the same time are \
                never added up (each moment from the source highest in the type's order: entered by hand, \
                Apple Watch, iPhone, other apps), sums spread over each sample's time and split at midnight, \
                a day's sleep the night that ends on it. Without a type: total_steps, total_distance_km, \
                active_energy_kcal, avg/min/max_heart_rate, resting_heart_rate, hrv_mean, sleep_hours and the \
                night's sleep, workouts, with the open anomalies whose records fall on each day (at most 93 \
                days at a time; without revealed values, a figure that would be one record's value — fewer \
                than 3 samples, a lowest, highest or last reading, a workout's distance or energy — is left out \
                and named in `withheld`). With a type (at most 3,660 days, ten years): per day its total (or hours asleep, or mean), \
                each source's part and what was left out as overlap, exact copies left out and counted, and \
                the records that vanished from the day. Values are in the type's unit; percentages in \
                figures are percentages, in a type's values fractions (0.97 = 97 %).
                """,
            inputSchema: object(
                [
                    "sample_type": string("Optional: one type. " + sampleTypeWords),
                    "from": string("First day, YYYY-MM-DD."),
                    "to": string(
                        "Last day, YYYY-MM-DD (with a type at most ten years after from, without one 93 days)."),
                    "time_zone": string(zoneWords),
                ], required: ["from", "to"]), annotations: readOnly)
    }

    static func answer(_ arguments: [String: Value], from answers: AssistantAnswers) throws -> AssistantAnswers.Answer {
        arguments["sample_type"] == nil
            ? try answers.value(answers.dayFigures(arguments)) : try answers.value(answers.dailySummary(arguments))
    }
}

import HealthProbeArchive
import HealthProbeKit

/// What an assistant should read before it explains a number: each anomaly type, and the
/// semantics assistants get wrong.
enum AssistantResources {
    struct Entry {
        var name: String
        var uri: String
        var summary: String
        var text: String
    }

    static let all: [Entry] = [
        Entry(
            name: "Anomaly types", uri: "healthprobe://docs/anomaly-types",
            summary: "What each anomaly type means and how severe it is.",
            text: "# HealthProbe's anomaly types\n\n"
                + AnomalyType.allCases.map { "- `\($0.rawValue)` — \($0.title)" }.joined(separator: "\n")
                    + """


                    A `silent_deletion` is a proven loss: records the previous capture held are gone, and no \
                    deletion, sync-version replacement or edit explains them. It is at least a warning, critical \
                    by share or count, and for what cannot be measured again (workouts, ECG recordings, clinical \
                    records, anything older than a year). The archive still holds what vanished: `healthprobe \
                    export --include-gone` gives it back.
                    """),
        Entry(
            name: "Reading Health numbers", uri: "healthprobe://docs/semantics",
            summary: "Fractions and percentages, sleep stages, overlapping sources, lateness.",
            text: """
                # Reading Apple Health numbers

                - **Percentages are fractions**: oxygen saturation 0.97 means 97 %; body fat 0.21 means 21 %.
                - **Sleep stages** (`HKCategoryValueSleepAnalysisAsleepCore`, `…Deep`, `…REM`, `…InBed`, \
                `…Awake`) overlap `InBed`: total sleep is the asleep stages, never stages plus in-bed.
                - **Overlapping sources**: a Watch and an iPhone both count steps for the same minutes; Health \
                shows one merged total, a plain sum counts twice. `source_overlap` anomalies say where.
                - **Lateness**: records may arrive days or weeks after they were measured (a scale syncing, an \
                app backfilling); `historical_insertion` marks them. A day can change after it ended.
                - **Days** are local days in the time zone asked for; dates in answers are ISO 8601.
                """),
    ]
}

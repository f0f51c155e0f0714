/// The last line of a check: healthy, or what needs a look — the same words in a terminal and
/// on the dashboard's result page.
public enum CheckVerdict {
    /// `firstCapture`: there was nothing to compare with, so only duplicates, overlaps and drift
    /// could be looked for.
    public static func text(_ anomalies: [Anomaly], firstCapture: Bool = false, howToShow: String) -> String {
        let serious = anomalies.filter { $0.severity >= .warning }.sorted { $0.severity > $1.severity }
        if anomalies.isEmpty {
            return firstCapture
                ? "Healthy so far: no duplicates, overlaps or drift; losses and backfills show from the next check."
                : "Healthy. Nothing vanished, appeared late, was duplicated or rewritten."
        }
        if serious.isEmpty {
            return "Healthy, with \(anomalies.count) note\(anomalies.count == 1 ? "" : "s") worth knowing (info only)."
        }
        let worst = serious[0].severity == .critical ? "Critical" : "Needs a look"
        let topics = serious.prefix(3).map {
            "\($0.type.title) of \(SampleTypeCatalog.displayName(of: $0.sampleType))"
        }
        let more = serious.count > 3 ? " and \(serious.count - 3) more" : ""
        return "\(worst): \(topics.joined(separator: "; "))\(more). \(howToShow)"
    }
}

import HealthProbeArchive

/// The last line of a check: healthy, or what needs a look — the same words in a terminal and
/// on the dashboard's result page.
public enum CheckVerdict {
    /// `firstCapture`: there was nothing to compare with, so only duplicates, overlaps and drift
    /// could be looked for.
    public static func text(_ anomalies: [Anomaly], firstCapture: Bool = false, howToShow: String) -> String {
        let detail = detail(anomalies, firstCapture: firstCapture, howToShow: howToShow)
        let lowered = detail.prefix(1).lowercased() + detail.dropFirst()
        if anomalies.isEmpty { return firstCapture ? "Healthy so far: \(lowered)" : "Healthy. \(detail)" }
        guard let worst = anomalies.map(\.severity).max(), worst >= .warning else { return "Healthy, with \(detail)" }
        return "\(worst == .critical ? "Critical" : "Needs a look"): \(lowered)"
    }

    /// The verdict without the status word, for a page that shows the status as its heading
    /// ("Healthy" above "Nothing vanished, …", not "Healthy. Healthy. …").
    public static func detail(_ anomalies: [Anomaly], firstCapture: Bool = false, howToShow: String) -> String {
        let serious = anomalies.filter { $0.severity >= .warning }.sorted { $0.severity > $1.severity }
        if anomalies.isEmpty {
            return firstCapture
                ? "No duplicates, overlaps or drift; losses and backfills show from the next check."
                : "Nothing vanished, appeared late, was duplicated or rewritten."
        }
        if serious.isEmpty {
            return "\(anomalies.count) note\(anomalies.count == 1 ? "" : "s") worth knowing (info only)."
        }
        return EvidenceText.sentence(topics(serious, howToShow: howToShow))
    }

    /// "silent deletion of heart rate; duplicate of steps and 2 more. …"
    private static func topics(_ serious: [Anomaly], howToShow: String) -> String {
        let topics = serious.prefix(3).map {
            $0.type.heading(of: $0.sampleType)
        }
        let more = serious.count > 3 ? " and \(serious.count - 3) more" : ""
        return "\(topics.joined(separator: "; "))\(more). \(howToShow)"
    }
}

import HealthProbeKit

/// How anomalies read in a terminal.
enum AnomalyText {
    /// "  #12 critical  silent deletion  HKQuantityTypeIdentifierHeartRate: 412 heart rate records vanished …"
    static func line(_ anomaly: Anomaly) -> String {
        let resolved = anomaly.resolved ? "  (resolved)" : ""
        return "  #\(anomaly.id)".padding(8) + anomaly.severity.rawValue.padding(9) + anomaly.type.rawValue.padding(21)
            + anomaly.summary + resolved
    }

    /// The last line of `check`: healthy, or what needs a look.
    /// `firstCapture`: there was nothing to compare with, so only duplicates, overlaps and drift
    /// could be looked for.
    static func verdict(_ anomalies: [Anomaly], firstCapture: Bool = false) -> String {
        let serious = anomalies.filter { $0.severity >= .warning }.sorted { $0.severity > $1.severity }
        if anomalies.isEmpty {
            return firstCapture
                ? "Verdict: healthy so far: no duplicates, overlaps or drift; losses and backfills show from the next check."
                : "Verdict: healthy. Nothing vanished, appeared late, was duplicated or rewritten."
        }
        if serious.isEmpty {
            return
                "Verdict: healthy, with \(anomalies.count) note\(anomalies.count == 1 ? "" : "s") worth knowing (info only)."
        }
        let worst = serious[0].severity == .critical ? "critical" : "needs a look"
        let topics = serious.prefix(3).map {
            "\($0.type.title) of \(SampleTypeCatalog.displayName(of: $0.sampleType))"
        }
        let more = serious.count > 3 ? " and \(serious.count - 3) more" : ""
        return "Verdict: \(worst): \(topics.joined(separator: "; "))\(more). "
            + "`healthprobe show ID` gives the evidence."
    }
}

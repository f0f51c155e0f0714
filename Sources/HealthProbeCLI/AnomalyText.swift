import HealthProbeArchive
import HealthProbeKit

/// How anomalies read in a terminal.
enum AnomalyText {
    /// "  #12 critical  silent deletion  HKQuantityTypeIdentifierHeartRate: 412 heart rate records vanished …"
    static func line(_ anomaly: Anomaly) -> String {
        let resolved = anomaly.status == "open" ? "" : "  (\(anomaly.status))"
        return "  #\(anomaly.id)".padding(8)
            + TerminalStyle.severity(anomaly.severity.rawValue.padding(9), anomaly.severity)
            + anomaly.type.rawValue.padding(21) + anomaly.summary + resolved
    }

    /// The last line of `check`: healthy, or what needs a look.
    static func verdict(_ anomalies: [Anomaly], firstCapture: Bool = false) -> String {
        let text = CheckVerdict.text(
            anomalies, firstCapture: firstCapture, howToShow: "`healthprobe show ID` gives the evidence.")
        let line = "Verdict: " + text.prefix(1).lowercased() + text.dropFirst()
        guard let worst = anomalies.map(\.severity).max() else { return line }
        return TerminalStyle.severity(line, worst)
    }
}

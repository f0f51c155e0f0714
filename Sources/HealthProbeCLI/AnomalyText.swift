import HealthProbeArchive
import HealthProbeKit

/// How anomalies read in a terminal.
enum AnomalyText {
    /// "  #12 critical  silent deletion  HKQuantityTypeIdentifierHeartRate: 412 heart rate records vanished …"
    static func line(_ anomaly: Anomaly) -> [TerminalStyle.Part] {
        let resolved = anomaly.status == "open" ? "" : "  (\(anomaly.status))"
        return [
            .init("  #\(anomaly.id)".padding(8)), .init(anomaly.severity.rawValue.padding(9), anomaly.severity),
            .init(anomaly.type.rawValue.padding(21)), .init(anomaly.summary + resolved),
        ]
    }

    /// The last line of `check`: healthy, or what needs a look.
    static func verdict(_ anomalies: [Anomaly], firstCapture: Bool = false) -> [TerminalStyle.Part] {
        let text = CheckVerdict.text(
            anomalies, firstCapture: firstCapture, howToShow: "`healthprobe show ID` gives the evidence.")
        let line = "Verdict: " + text.prefix(1).lowercased() + text.dropFirst()
        return [.init(line, anomalies.map(\.severity).max())]
    }
}

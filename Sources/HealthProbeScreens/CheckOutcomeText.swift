import HealthProbeArchive
import HealthProbeKit

/// A check's outcome in a sentence, as Check Now reports it.
public enum CheckOutcomeText {
    public static func describe(_ outcome: CheckOutcome) -> String {
        switch outcome.kind {
        case .deferred:
            return "The check was deferred: \(outcome.notes.first ?? "try again later")."
        case .cutOff:
            return "The check ran out of time: what it read is stored, and the next check carries on from there."
        case .failed:
            return "The check could not run: \(outcome.status.message)."
        case .completed:
            let found =
                outcome.anomalies.isEmpty
                ? "nothing to report"
                : "\(outcome.anomalies.count) anomal\(outcome.anomalies.count == 1 ? "y" : "ies") found"
            let read = outcome.capture.map { "\(EvidenceText.grouped($0.records)) records read, " } ?? ""
            return "Checked: \(read)\(found)."
        }
    }
}

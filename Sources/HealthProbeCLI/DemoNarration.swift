import Foundation
import HealthProbeKit
import HealthProbeSimulation

/// The demo's story on stdout, a check at a time (nothing when printing JSON).
struct DemoNarration: Sendable {
    let scenario: DemoScenario
    let json: Bool

    func begin() {
        guard !json else { return }
        Output.line(
            "HealthProbe demo: a simulated iPhone with \(scenario.historyDays) days of history, checked once a day for \(scenario.days) days."
        )
        Output.line("Synthetic data only; nothing leaves this machine.")
        Output.line()
    }

    func tell(_ check: DemoScenario.Check) {
        guard !json else { return }
        let head = "Day \(check.day)".padding(8) + check.date + "  "
        let indent = String(repeating: " ", count: head.count)
        for (index, line) in check.happened.enumerated() {
            Output.line((index == 0 ? head : indent) + line, hanging: head.count)
        }
        let outcome = check.outcome
        var result: String
        switch outcome.kind {
        case .deferred:
            result = "check deferred: the phone is locked, so nothing was read (and nothing taken as missing)"
        case .cutOff:
            result = "check cut off: what it read is stored, and the next check resumes it"
        case .failed:
            result = "check could not run: \(outcome.status.message)"
        case .completed:
            let capture = outcome.capture
            result =
                "\(check.trigger) check\(outcome.verified ? " with a verification scan" : ""): "
                + "\(Output.grouped(capture?.new ?? 0)) new"
            if let restored = capture?.restored, restored > 0 {
                result += " (\(Output.grouped(restored)) of them put back by the restore: known, not new)"
            }
            if let gone = capture?.gone, gone > 0 { result += ", \(Output.grouped(gone)) gone" }
            var audited: [String] = []
            if outcome.explicitDeletions > 0 {
                audited.append("\(Output.grouped(outcome.explicitDeletions)) deleted in Health")
            }
            if outcome.updates > 0 { audited.append("\(Output.grouped(outcome.updates)) replaced by newer versions") }
            if !audited.isEmpty { result += " (\(audited.joined(separator: ", ")): audit entries, not anomalies)" }
            result += " → \(outcome.status.label)"
            if case .unknown(let reason) = outcome.status { result += ": \(reason)" }
        }
        Output.line((check.happened.isEmpty ? head : indent) + result, hanging: head.count)
        for anomaly in outcome.anomalies {
            Output.line(indent + "  \(anomaly.severity.rawValue) \(anomaly.type.rawValue): \(anomaly.summary)")
        }
        for anomaly in check.restored {
            Output.line(indent + "  anomaly \(anomaly.id), \(anomaly.type.rawValue): \(anomaly.status)")
        }
    }

    func end(_ checks: [DemoScenario.Check], keptAt path: String?) {
        let anomalies = checks.flatMap(\.outcome.anomalies)
        Output.line()
        if anomalies.isEmpty {
            Output.line("HealthProbe found nothing wrong.")
        } else {
            let byType = Dictionary(grouping: anomalies, by: \.type).sorted { $0.key.rawValue < $1.key.rawValue }
            Output.line(
                "HealthProbe found: " + byType.map { "\($0.value.count) \($0.key.rawValue)" }.joined(separator: ", ")
                    + ".")
        }
        let restored = checks.flatMap(\.restored).filter(\.restored)
        if !restored.isEmpty {
            Output.line(
                "Put back with a restore: "
                    + restored.map { "anomaly \($0.id) (\(Output.grouped($0.restoredCount)) records)" }
                    .joined(separator: ", ") + ", written once: a second restore found nothing left.")
        }
        let deleted = checks.reduce(0) { $0 + $1.outcome.explicitDeletions }
        if deleted > 0 {
            Output.line(
                "Deleted in the Health app: \(Output.grouped(deleted)) records, kept as audit entries, not anomalies.")
        }
        if let path {
            Output.line("The archive is kept at \(path): try `healthprobe anomalies --archive \(path)`.")
        } else {
            Output.line("The demo's archive was temporary and is removed; keep it with --keep PATH.")
        }
    }
}

import HealthProbeArchive

/// What a backup's check adds to its result, in a sentence each, for the dashboard and the app:
/// the records found deleted in Health (by type and day) and those not compared.
public enum BackupNotes {
    public static func lines(_ result: CheckResult) -> [String] {
        var lines: [String] = []
        if let deletions = result.deletions, !deletions.isEmpty {
            let days = deletions.map {
                "\(EvidenceText.grouped($0.count)) \(HealthKitCatalog.displayName(of: $0.sampleType)) on \($0.day)"
            }
            lines.append("deleted in Health, as the database's deletion records say: \(days.joined(separator: ", "))")
        }
        if let carried = result.capture.notCompared, carried > 0 {
            lines.append(
                "\(EvidenceText.grouped(carried)) record\(carried == 1 ? "" : "s") of kinds a Health database does not hold (activity "
                    + "summaries, correlations, …) were carried over from the previous capture, not compared")
        }
        return lines
    }
}

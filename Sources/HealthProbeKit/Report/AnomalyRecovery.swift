import HealthProbeArchive

/// What a user can do about a loss: the archive keeps every record it has seen and every file
/// that came with one, so what vanished or changed can be given back — the command that does.
extension AnomalyReport {
    /// The command that gives back what the anomaly says was lost or changed; nil for anomalies
    /// about what is still there (duplicates, backfills, drift).
    public var recovery: String? {
        let previous = capture?.previousCaptureId ?? anomaly.evidence["previousCaptureId"].flatMap { Int64($0) }
        let before = previous.map { " --as-of-capture \($0)" } ?? ""
        switch anomaly.type {
        case .silentDeletion:
            let with: String =
                switch anomaly.sampleType {
                case ElectrocardiogramTrace.sampleType: " with their voltages"
                case HealthRecord.workoutType: " with their routes"
                default: anomaly.sampleType.hasPrefix("HKClinicalTypeIdentifier") ? " with their documents" : ""
                }
            return "The archive still holds them\(with): `healthprobe export --include-gone --format apple-health "
                + "--output FILE.zip` rebuilds the export with them (`--format json` lists them)."
        case .unrelatedCapture:
            return "Nothing is lost from the archive: `healthprobe captures exclude \(anomaly.captureId)` sets this "
                + "capture aside, and the next check compares with the one before it."
        case .routeChanged:
            return "The route as it was is kept: `healthprobe export\(before) --format apple-health --output FILE.zip` "
                + "gives the workout back with it."
        case .documentMissing, .documentChanged:
            return "The document as it was is kept: `healthprobe export\(before) --format apple-health "
                + "--output FILE.zip` gives it back."
        default:
            return nil
        }
    }
}

import GRDB

/// `silent_deletion`: records P held that C does not, and that nothing explains — not deleted
/// explicitly, not rewritten, not replaced. Severity by the share of the type's records in P
/// that vanished (docs/DESIGN.md §8).
struct SilentDeletionDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    func detect(_ db: Database, previousCounts: [String: Int], currentCounts: [String: Int]) throws -> [Finding] {
        guard pair.previous != nil else { return [] }
        let tallies = try CaptureDiff.unexplainedDepartures(db, reason: .absent)
        return tallies.sorted { $0.key < $1.key }.map { sampleType, tally in
            finding(
                sampleType, tally, previousCount: previousCounts[sampleType] ?? tally.count,
                currentCount: currentCounts[sampleType] ?? 0)
        }
    }

    private func finding(_ sampleType: String, _ tally: RecordTally, previousCount: Int, currentCount: Int) -> Finding {
        let limits = thresholds.applying(to: sampleType)
        let share = Double(tally.count) / Double(max(previousCount, 1))
        var severity: Severity =
            share > limits.deletionCriticalShare ? .critical : share > limits.deletionWarningShare ? .warning : .info
        if tally.count >= limits.deletionWarningCount { severity = max(severity, .warning) }
        let masked = currentCount >= previousCount
        var evidence = tally.evidence
        evidence["masked"] = masked ? "true" : "false"
        evidence["previousCount"] = String(previousCount)
        evidence["currentCount"] = String(currentCount)
        evidence["lossPercent"] = EvidenceText.percent(share)
        evidence["timeBetweenExports"] = pair.interval.map(EvidenceText.duration)
        evidence["previousExportDate"] = pair.previous.map { UTCText.iso8601(seconds: $0.date) }
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        let maskNote = masked ? "; masked: the type's total did not drop" : ""
        return Finding(
            type: .silentDeletion, severity: severity, sampleType: sampleType,
            summary: "\(EvidenceText.records(tally.count, of: sampleType)) vanished "
                + "(\(EvidenceText.percent(share))% of \(EvidenceText.grouped(previousCount)), "
                + "\(tally.evidence["dateRange"] ?? "no dates"))\(maskNote)",
            recordCount: tally.count, evidence: evidence,
            records: [
                .query(
                    role: "vanished",
                    sql: CaptureDiff.unexplainedDepartureIDs,
                    arguments: [GoneReason.absent.databaseValue, sampleType.databaseValue])
            ])
    }
}

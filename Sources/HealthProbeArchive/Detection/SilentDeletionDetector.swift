internal import GRDB

/// `silent_deletion`: records P held that C does not, and that nothing explains — not deleted
/// explicitly, not rewritten, not replaced. Each is a proven loss, so at least a warning; critical
/// by share, by count, by age, or for a type that cannot be measured again (docs/DESIGN.md §8).
struct SilentDeletionDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    func detect(_ db: Database, previousCounts: [String: Int], currentCounts: [String: Int]) throws -> [Finding] {
        guard pair.previous != nil else { return [] }
        let tallies = try CaptureDiff.unexplainedDepartures(db, reason: .absent, dayZone: pair.dayZone)
        return tallies.sorted { $0.key < $1.key }.map { sampleType, tally in
            finding(
                sampleType, tally, previousCount: previousCounts[sampleType] ?? tally.count,
                currentCount: currentCounts[sampleType] ?? 0)
        }
    }

    private func finding(_ sampleType: String, _ tally: RecordTally, previousCount: Int, currentCount: Int) -> Finding {
        let share = Double(tally.count) / Double(max(previousCount, 1))
        let reasons = criticalReasons(sampleType, tally, share: share)
        let severity: Severity = reasons.isEmpty ? .warning : .critical
        let masked = currentCount >= previousCount
        var evidence = tally.evidence
        evidence["masked"] = masked ? "true" : "false"
        evidence["previousCount"] = String(previousCount)
        evidence["currentCount"] = String(currentCount)
        evidence["lossPercent"] = EvidenceText.percent(share)
        evidence["timeBetweenExports"] = pair.interval.map(EvidenceText.duration)
        evidence["previousExportDate"] = pair.previous.map { UTCText.iso8601(seconds: $0.date) }
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        evidence["severityReason"] = reasons.isEmpty ? "proven loss" : reasons.joined(separator: "; ")
        let maskNote = masked ? "; new records hid it: the type's total did not drop" : ""
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
                    arguments: [GoneReason.absent.rawValue.databaseValue, sampleType.databaseValue])
            ])
    }

    /// Why a loss is critical, in words for the evidence; empty when it is a warning.
    private func criticalReasons(_ sampleType: String, _ tally: RecordTally, share: Double) -> [String] {
        let limits = thresholds.applying(to: sampleType)
        var reasons: [String] = []
        if share > limits.deletionCriticalShare {
            reasons.append("more than \(EvidenceText.percent(limits.deletionCriticalShare))% of the type")
        }
        if tally.count >= limits.deletionCriticalCount {
            reasons.append("\(EvidenceText.grouped(limits.deletionCriticalCount)) records or more")
        }
        if limits.isIrreplaceable(sampleType, kinds: tally.kinds) { reasons.append("cannot be measured again") }
        if let previous = pair.previous, let oldest = tally.firstStart,
            oldest < previous.date - limits.deletionCriticalAgeSeconds
        {
            reasons.append("older than \(EvidenceText.duration(limits.deletionCriticalAgeSeconds))")
        }
        return reasons
    }
}

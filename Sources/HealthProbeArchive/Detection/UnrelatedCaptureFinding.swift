internal import GRDB

/// `unrelated_capture`: a capture checked with `--allow-unrelated` that shares almost nothing with
/// what the archive held (``UnrelatedCaptureRefusal``'s test) is one finding, not a loss and a
/// backfill of every type: what the comparison found per type is folded into it, with all their
/// records (so that the vanished ones still come back as a recovery). What the capture shows on
/// its own — copies, overlaps, conflicting values, drift — is reported as for any capture.
enum UnrelatedCaptureFinding {
    /// The sample type an anomaly about every type names.
    static let everyType = "*"

    /// The findings that compare the capture with the one before it.
    static let comparing: Set<AnomalyType> = [
        .silentDeletion, .historicalInsertion, .valueModified, .timesModified, .bulkDeletion, .routeChanged,
        .documentMissing, .documentChanged,
    ]

    static func fold(_ findings: [Finding], _ db: Database, pair: CapturePair) throws -> [Finding] {
        guard let previous = pair.previous, !pair.isLive,
            let row = try Row.fetchOne(
                db, sql: "SELECT records, new, gone FROM capture WHERE id = ?", arguments: [pair.current.id])
        else { return findings }
        let records: Int = row["records"]
        let new: Int = row["new"]
        let gone: Int = row["gone"]
        let shared = records - new
        guard UnrelatedCaptureRefusal.isUnrelated(held: shared + gone, shared: shared, gone: gone) else {
            return findings
        }
        let folded = findings.filter { comparing.contains($0.type) }
        let held = shared + gone
        let evidence = [
            "heldBefore": String(held), "shared": String(shared), "gone": String(gone), "new": String(new),
            "previousCaptureId": String(previous.id),
            "foldedAnomalies": String(folded.count),
            "foldedTypes": String(Set(folded.map(\.sampleType)).count),
        ]
        let summary =
            "capture \(pair.current.id) shares \(EvidenceText.grouped(shared)) of the \(EvidenceText.grouped(held)) "
            + "records capture \(previous.id) held (\(EvidenceText.grouped(gone)) gone, \(EvidenceText.grouped(new)) new): "
            + "it looks like someone else's export or another file, checked all the same"
        let unrelated = Finding(
            type: .unrelatedCapture, severity: .critical, sampleType: everyType, summary: summary,
            recordCount: folded.filter { $0.type == .silentDeletion }.reduce(0) { $0 + $1.recordCount },
            evidence: evidence, records: folded.flatMap(\.records))
        return [unrelated] + findings.filter { !comparing.contains($0.type) }
    }
}

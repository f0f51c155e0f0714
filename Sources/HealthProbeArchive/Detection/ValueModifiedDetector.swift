internal import GRDB

/// `value_modified`: a vanished record whose type, source, start and end arrive again with
/// another value or unit. Each rewritten pair is explained here, so it is neither a deletion
/// nor an insertion.
struct ValueModifiedDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    func detect(_ db: Database, previousCounts: [String: Int]) throws -> [Finding] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT old.id, new.id, old.type, old.sourceName, old.startDate, old.endDate,
                    old.unit IS NOT new.unit AS unitChanged
                FROM temp.departure AS old JOIN temp.arrival AS new
                    ON new.type = old.type AND new.startDate = old.startDate AND new.endDate = old.endDate
                WHERE old.explanation IS NULL AND new.explanation IS NULL AND old.reason = \(GoneReason.absent.sqlLiteral) AND new.kind = old.kind
                    AND new.sourceName IS old.sourceName AND old.value IS NOT NULL
                    AND (new.value IS NOT old.value OR new.unit IS NOT old.unit)
                ORDER BY old.type, old.id, new.id
                """)
        var pairs = RewrittenPairs(zone: pair.dayZone)
        while let row = try rows.next() {
            let unitChanged: Bool = row[6]
            pairs.take(
                before: row[0], after: row[1], type: row[2], source: row[3], start: row[4], end: row[5]
            ) { if unitChanged { $0 += 1 } }
        }
        var findings: [Finding] = []
        for (sampleType, tally) in try pairs.explained(db) {
            findings.append(
                finding(
                    sampleType, tally.before, after: tally.after, unitChanges: Int(tally.measure),
                    previousCount: previousCounts[sampleType] ?? 0))
        }
        return findings
    }

    private func finding(
        _ sampleType: String, _ before: RecordTally, after: [Int64], unitChanges: Int, previousCount: Int
    ) -> Finding {
        let limits = thresholds.applying(to: sampleType)
        let share = previousCount > 0 ? Double(before.count) / Double(previousCount) : 1
        var evidence = before.evidence
        evidence["previousCount"] = String(previousCount)
        evidence["modifiedPercent"] = EvidenceText.percent(share)
        evidence["unitChanged"] = String(unitChanges)
        evidence["valueChanged"] = String(before.count - unitChanges)
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        return Finding(
            type: .valueModified, severity: share >= limits.modificationCriticalShare ? .critical : .warning,
            sampleType: sampleType,
            summary: "\(EvidenceText.records(before.count, of: sampleType)) rewritten with another value"
                + (unitChanges > 0 ? " or unit" : "") + " (\(before.evidence["dateRange"] ?? "no dates"))",
            recordCount: before.count, evidence: evidence,
            records: [.ids(role: "before", before.ids), .ids(role: "after", after)])
    }
}

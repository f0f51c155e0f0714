internal import GRDB

/// `times_modified`: a vanished record whose type, source, value and unit arrive again with its
/// start or end moved a little — an app re-analysing a night, HealthKit's own edit (a deletion
/// and a new save). The record was changed, not lost: each pair is explained here, so it is
/// neither a deletion nor an insertion.
struct TimesModifiedDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    func detect(_ db: Database, previousCounts: [String: Int]) throws -> [Finding] {
        let window = thresholds.timesModifiedWindowSeconds
        // Each departure meets the arrivals of its type starting within the window (the index on
        // type and start), nearest first.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT old.id, new.id, old.type, old.sourceName, old.startDate, old.endDate,
                    max(abs(new.startDate - old.startDate), abs(IFNULL(new.endDate, new.startDate)
                        - IFNULL(old.endDate, old.startDate))) AS shift
                FROM temp.departure AS old JOIN temp.arrival AS new
                    ON new.type = old.type AND new.startDate BETWEEN old.startDate - :window AND old.startDate + :window
                WHERE old.explanation IS NULL AND new.explanation IS NULL AND old.reason = \(GoneReason.absent.sqlLiteral)
                    AND new.kind = old.kind AND new.sourceName IS old.sourceName AND new.value IS old.value
                    AND new.unit IS old.unit AND old.startDate IS NOT NULL
                    AND abs(IFNULL(new.endDate, new.startDate) - IFNULL(old.endDate, old.startDate)) <= :window
                    AND (new.startDate <> old.startDate OR new.endDate IS NOT old.endDate)
                ORDER BY old.type, shift, old.id, new.id
                """, arguments: ["window": window])
        var pairs = RewrittenPairs(zone: pair.dayZone)
        while let row = try rows.next() {
            let shift: Double = row[6]
            pairs.take(
                before: row[0], after: row[1], type: row[2], source: row[3], start: row[4], end: row[5]
            ) { $0 = max($0, shift) }
        }
        var findings: [Finding] = []
        for (sampleType, tally) in try pairs.explained(db) {
            findings.append(
                finding(
                    sampleType, tally.before, after: tally.after, largestShift: tally.measure,
                    previousCount: previousCounts[sampleType] ?? 0))
        }
        return findings
    }

    private func finding(
        _ sampleType: String, _ before: RecordTally, after: [Int64], largestShift: Double, previousCount: Int
    ) -> Finding {
        let share = previousCount > 0 ? Double(before.count) / Double(previousCount) : 1
        var evidence = before.evidence
        evidence["previousCount"] = String(previousCount)
        evidence["modifiedPercent"] = EvidenceText.percent(share)
        evidence["largestShift"] = EvidenceText.duration(largestShift)
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        let small = largestShift <= thresholds.timesModifiedInfoShiftSeconds
        return Finding(
            type: .timesModified, severity: small ? .info : .warning, sampleType: sampleType,
            summary: "\(EvidenceText.records(before.count, of: sampleType)) edited: "
                + "\(before.count == 1 ? "its" : "their") start or end moved by up to "
                + "\(EvidenceText.duration(largestShift)), nothing lost (\(before.evidence["dateRange"] ?? "no dates"))",
            recordCount: before.count, evidence: evidence,
            records: [.ids(role: "before", before.ids), .ids(role: "after", after)])
    }
}

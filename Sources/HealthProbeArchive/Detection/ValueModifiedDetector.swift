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
        var usedArrivals: Set<Int64> = []
        var usedDepartures: Set<Int64> = []
        var tallies: [String: (before: RecordTally, after: [Int64], unitChanges: Int)] = [:]
        while let row = try rows.next() {
            let before: Int64 = row[0]
            let after: Int64 = row[1]
            guard !usedDepartures.contains(before), !usedArrivals.contains(after) else { continue }
            usedDepartures.insert(before)
            usedArrivals.insert(after)
            let type: String = row[2]
            var tally = tallies[type] ?? (RecordTally(zone: pair.dayZone), [], 0)
            tally.before.add(id: before, source: row[3], start: row[4], end: row[5])
            tally.after.append(after)
            if row[6] as Bool { tally.unitChanges += 1 }
            tallies[type] = tally
        }
        var findings: [Finding] = []
        for (sampleType, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            try CaptureDiff.explain(db, table: "departure", ids: tally.before.ids, as: "modified")
            try CaptureDiff.explain(db, table: "arrival", ids: tally.after, as: "modified")
            try CaptureDiff.setGoneReason(db, ids: tally.before.ids, reason: .modified)
            findings.append(
                finding(
                    sampleType, tally.before, after: tally.after, unitChanges: tally.unitChanges,
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

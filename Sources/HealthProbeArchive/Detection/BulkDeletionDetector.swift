internal import GRDB

/// `bulk_deletion` (live path): records HealthKit reported deleted (tombstones) in this check,
/// not explained as replaced, when they are many and a large share of their type. A user deleting
/// a day of data is an audit entry; an app wiping a quarter of a type's history is worth a look.
struct BulkDeletionDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    func detect(_ db: Database, previousCounts: [String: Int]) throws -> [Finding] {
        let tallies = try CaptureDiff.unexplainedDepartures(db, reason: .deleted, dayZone: pair.dayZone)
        return tallies.sorted { $0.key < $1.key }.compactMap { sampleType, tally in
            let limits = thresholds.applying(to: sampleType)
            let previous = max(previousCounts[sampleType] ?? tally.count, tally.count, 1)
            let share = Double(tally.count) / Double(previous)
            guard tally.count >= limits.bulkDeletionCount, share >= limits.bulkDeletionShare else { return nil }
            var evidence = tally.evidence
            evidence["previousCount"] = String(previous)
            evidence["deletedPercent"] = EvidenceText.percent(share)
            evidence["explicit"] = "true"
            return Finding(
                type: .bulkDeletion, severity: .warning, sampleType: sampleType,
                summary: "\(EvidenceText.records(tally.count, of: sampleType)) were deleted in Health at once "
                    + "(\(EvidenceText.percent(share))% of \(EvidenceText.grouped(previous)), "
                    + "\(tally.evidence["dateRange"] ?? "no dates"))",
                recordCount: tally.count, evidence: evidence,
                records: [
                    .query(
                        role: "deleted", sql: CaptureDiff.unexplainedDepartureIDs,
                        arguments: [GoneReason.deleted.rawValue.databaseValue, sampleType.databaseValue])
                ])
        }
    }
}

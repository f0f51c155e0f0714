internal import GRDB

/// `historical_insertion`: records first seen in C whose end is earlier than P's export date
/// minus the grace period (per type and source, for known late writers): they should already
/// have been in P. Records that came back after having gone are not insertions.
struct HistoricalInsertionDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    private struct Backfill {
        var tally: RecordTally
        var oldestAge = 0.0
        var newestAge = Double.infinity
        var lags: [Double] = []
    }

    func detect(_ db: Database) throws -> [Finding] {
        guard let previous = pair.previous else { return [] }
        let shortestGrace = ([thresholds.graceSeconds] + thresholds.perSampleType.values.map(\.graceSeconds)).min()!
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, type, sourceName, startDate, endDate, creationDate FROM temp.arrival
                WHERE explanation IS NULL AND returned = 0 AND endDate < ?
                """, arguments: [previous.date - shortestGrace])
        var backfills: [String: Backfill] = [:]
        while let row = try rows.next() {
            let type: String = row["type"]
            let source: String? = row["sourceName"]
            let end: Double = row["endDate"]
            guard end < previous.date - thresholds.grace(sampleType: type, source: source) else { continue }
            let start: Double? = row["startDate"]
            var backfill = backfills[type] ?? Backfill(tally: RecordTally(zone: pair.dayZone))
            backfill.tally.add(id: row["id"], source: source, start: start, end: end)
            let age = previous.date - end
            backfill.oldestAge = max(backfill.oldestAge, previous.date - (start ?? end))
            backfill.newestAge = min(backfill.newestAge, age)
            if let created = row["creationDate"] as Double?, let start, backfill.lags.count < 100_000 {
                backfill.lags.append(created - start)
            }
            backfills[type] = backfill
        }
        for backfill in backfills.values {
            try CaptureDiff.explain(db, table: "arrival", ids: backfill.tally.ids, as: "historical")
        }
        return backfills.sorted { $0.key < $1.key }.map { finding($0.key, $0.value) }
    }

    /// What the previous capture was, for people.
    private var previousName: String { pair.isLive ? "check" : "export" }

    private func finding(_ sampleType: String, _ backfill: Backfill) -> Finding {
        let limits = thresholds.applying(to: sampleType)
        let tally = backfill.tally
        let severity: Severity =
            tally.count >= limits.insertionWarningCount || backfill.oldestAge >= limits.insertionWarningAgeSeconds
            ? .warning : .info
        var evidence = tally.evidence
        evidence["ageRange"] =
            "\(EvidenceText.duration(backfill.newestAge)) – \(EvidenceText.duration(backfill.oldestAge)) before the previous \(previousName)"
        evidence["graceDays"] = String(Int(thresholds.grace(sampleType: sampleType, source: nil) / 86_400))
        let lags = backfill.lags.sorted()
        if !lags.isEmpty {
            evidence["creationLagMedian"] = EvidenceText.duration(lags[lags.count / 2])
            evidence["creationLagMax"] = EvidenceText.duration(lags[lags.count - 1])
        }
        evidence["previousExportDate"] = pair.previous.map { UTCText.iso8601(seconds: $0.date) }
        return Finding(
            type: .historicalInsertion, severity: severity, sampleType: sampleType,
            summary: "\(EvidenceText.records(tally.count, of: sampleType)) appeared dated "
                + "\(tally.evidence["dateRange"] ?? "in the past"), before the previous \(previousName)",
            recordCount: tally.count, evidence: evidence,
            records: [.ids(role: "inserted", tally.ids)])
    }
}

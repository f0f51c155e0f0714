internal import GRDB

/// Pairs a departed record with an arrival that is the same sample written again, so that
/// neither is taken for a loss or a backfill. What it finds goes to the audit trail, not to
/// anomalies: these are legitimate updates.
protocol UpdateMatcher {
    /// Why the departed record is gone (`record.goneReason`).
    var reason: GoneReason { get }
    /// (departure id, arrival id, sample type) candidates, best first for each departure.
    var candidatesSQL: String { get }
    /// The audit message for `count` records of `sampleType`.
    func message(count: Int, sampleType: String, capture: Int64) -> String
}

extension UpdateMatcher {
    /// Pairs each departure with at most one arrival and each arrival with one departure, marks
    /// both explained, and writes one audit entry per sample type.
    func run(_ db: Database, pair: CapturePair) throws {
        var usedArrivals: Set<Int64> = []
        var usedDepartures: Set<Int64> = []
        var byType: [String: (departures: [Int64], arrivals: [Int64])] = [:]
        let rows = try Row.fetchCursor(db, sql: candidatesSQL)
        while let row = try rows.next() {
            let departure: Int64 = row[0]
            let arrival: Int64 = row[1]
            guard !usedDepartures.contains(departure), !usedArrivals.contains(arrival) else { continue }
            usedDepartures.insert(departure)
            usedArrivals.insert(arrival)
            byType[row[2], default: ([], [])].departures.append(departure)
            byType[row[2], default: ([], [])].arrivals.append(arrival)
        }
        for (sampleType, matched) in byType.sorted(by: { $0.key < $1.key }) {
            try CaptureDiff.explain(db, table: "departure", ids: matched.departures, as: reason.rawValue)
            try CaptureDiff.explain(db, table: "arrival", ids: matched.arrivals, as: reason.rawValue)
            try CaptureDiff.setGoneReason(db, ids: matched.departures, reason: reason)
            try AuditLog.append(
                db, event: .recordsUpdated, captureID: pair.current.id,
                message: message(count: matched.departures.count, sampleType: sampleType, capture: pair.current.id))
        }
    }
}

/// A departed record whose `HKMetadataKeySyncIdentifier` reappears, from the same source and
/// type, with a higher `HKMetadataKeySyncVersion`: the writer replaced it (docs/HEALTHKIT.md).
struct SyncReplacementMatcher: UpdateMatcher {
    let reason = GoneReason.replaced

    private static func syncFields(_ table: String) -> String {
        """
        SELECT id, type, sourceName,
            (SELECT json_extract(entry.value, '$[1]') FROM json_each(syncMetadata) AS entry
             WHERE json_extract(entry.value, '$[0]') = 'HKMetadataKeySyncIdentifier') AS syncIdentifier,
            (SELECT CAST(json_extract(entry.value, '$[1]') AS INTEGER) FROM json_each(syncMetadata) AS entry
             WHERE json_extract(entry.value, '$[0]') = 'HKMetadataKeySyncVersion') AS syncVersion
        FROM temp.\(table) WHERE syncMetadata IS NOT NULL AND explanation IS NULL
        """
    }

    var candidatesSQL: String {
        """
        WITH old AS (\(Self.syncFields("departure"))), new AS (\(Self.syncFields("arrival")))
        SELECT old.id, new.id, old.type FROM old JOIN new
            ON new.syncIdentifier = old.syncIdentifier AND new.type = old.type AND new.sourceName IS old.sourceName
        WHERE IFNULL(new.syncVersion, 0) > IFNULL(old.syncVersion, 0)
        ORDER BY old.id, new.syncVersion DESC, new.id
        """
    }

    func message(count: Int, sampleType: String, capture: Int64) -> String {
        "capture \(capture): \(count) \(sampleType) records replaced by a newer sync version"
    }
}

/// A departed record whose sample — type, source, unit, start, end and value — arrives again
/// with other incidental content (creation date, metadata, device software): written anew,
/// nothing lost.
struct ReissueMatcher: UpdateMatcher {
    let reason = GoneReason.reissued

    var candidatesSQL: String {
        """
        SELECT old.id, new.id, old.type FROM temp.departure AS old JOIN temp.arrival AS new
            ON new.semanticKey = old.semanticKey AND new.semanticFingerprint = old.semanticFingerprint
        WHERE old.explanation IS NULL AND new.explanation IS NULL
        ORDER BY old.id, new.id
        """
    }

    func message(count: Int, sampleType: String, capture: Int64) -> String {
        "capture \(capture): \(count) \(sampleType) records written again with the same sample content"
    }
}

import Foundation
internal import GRDB

/// Samples HealthProbe wrote back into Health, known again when a capture holds them: an arrival
/// whose `HKMetadataKeySyncIdentifier` is a vanished record's restore identifier
/// (``LostRecord/restoreIdentifier(fingerprint:occurrence:)``), of its type and at its start, is
/// that record put back — matched to it in `recordRestore`, neither a backfill nor a record of
/// unknown origin. The record that vanished stays gone (the sample is HealthProbe's own, another
/// record); the loss counts what was put back, and once every record is back or put back it is
/// restored, no longer open.
///
/// The counts are a function of the complete captures: a capture set aside stops counting, taken
/// back it counts again (``refresh(_:)``).
enum RestoredRecords {
    /// The prefix every restore identifier starts with.
    static let identifierPrefix = "HealthProbe-"

    /// Matches the capture's unexplained arrivals written by a restore to the records they put
    /// back, marks them explained, counts them on the capture and notes them in the trail.
    /// Runs inside ``CaptureAudit`` once `temp.arrival` is built.
    static func match(_ db: Database, pair: CapturePair) throws {
        let arrivals = try Row.fetchAll(
            db,
            sql: """
                SELECT a.id, a.type, a.startDate,
                    (SELECT json_extract(entry.value, '$[1]') FROM json_each(a.syncMetadata) AS entry
                     WHERE json_extract(entry.value, '$[0]') = 'HKMetadataKeySyncIdentifier') AS identifier
                FROM temp.arrival AS a
                WHERE a.returned = 0 AND a.explanation IS NULL AND a.syncMetadata LIKE '%\(identifierPrefix)%'
                """)
        let vanished = try db.cachedStatement(
            sql: """
                SELECT r.id FROM record AS r
                WHERE r.startDate BETWEEN ?1 - 1 AND ?1 + 1 AND r.type = ?2 AND r.occurrence = ?3
                    AND r.strictFingerprint = ?4 AND r.goneCapture IS NOT NULL
                    AND r.goneReason = \(GoneReason.absent.sqlLiteral)
                    AND NOT EXISTS (\(restoredSQL("r.id")))
                LIMIT 1
                """)
        let link = try db.cachedStatement(
            sql: "INSERT INTO recordRestore (restoredRecordId, recordId, captureId) VALUES (?, ?, ?)")
        var byType: [String: [Int64]] = [:]
        for arrival in arrivals {
            guard let identifier = arrival["identifier"] as String?, let parsed = parse(identifier),
                let start = arrival["startDate"] as Double?
            else { continue }
            let type: String = arrival["type"]
            guard
                let recordID = try Int64.fetchOne(
                    vanished, arguments: [start, type, parsed.occurrence, parsed.fingerprint])
            else { continue }
            let arrivalID: Int64 = arrival["id"]
            try link.execute(arguments: [arrivalID, recordID, pair.current.id])
            byType[type, default: []].append(arrivalID)
        }
        for (type, ids) in byType.sorted(by: { $0.key < $1.key }) {
            try CaptureDiff.explain(db, table: "arrival", ids: ids, as: "restored")
            try AuditLog.append(
                db, event: .recordsRestored, captureID: pair.current.id,
                message: "capture \(pair.current.id): \(EvidenceText.records(ids.count, of: type)) "
                    + "HealthProbe put back are in Health again")
        }
        let total = byType.values.reduce(0) { $0 + $1.count }
        if total > 0 {
            try db.execute(
                sql: "UPDATE capture SET restored = ? WHERE id = ?", arguments: [total, pair.current.id])
        }
    }

    /// SQL true when the record `column` names was put back and a complete capture holds that.
    static func restoredSQL(_ column: String) -> String {
        """
        SELECT 1 FROM recordRestore AS rr JOIN capture AS rc ON rc.id = rr.captureId
        WHERE rr.recordId = \(column) AND rc.status = \(CaptureStatus.complete.sqlLiteral)
        """
    }

    /// Each loss's count of records put back, from the complete captures' matches: how many, the
    /// last capture that held any, and — when with the records back by themselves that is all of
    /// them — when that capture began (restored, no longer open).
    static func refresh(_ db: Database) throws {
        try db.execute(
            sql: """
                WITH put AS (
                    SELECT l.anomalyId AS id, COUNT(DISTINCT rr.recordId) AS n, MAX(rr.captureId) AS last
                    FROM recordRestore AS rr
                    JOIN capture AS c ON c.id = rr.captureId AND c.status = \(CaptureStatus.complete.sqlLiteral)
                    JOIN anomalyRecord AS l ON l.recordId = rr.recordId AND l.role = 'vanished'
                    GROUP BY l.anomalyId)
                UPDATE anomaly SET
                    restoredCount = IFNULL((SELECT n FROM put WHERE put.id = anomaly.id), 0),
                    restoredCapture = (SELECT last FROM put WHERE put.id = anomaly.id)
                WHERE restoredCount > 0 OR id IN (SELECT id FROM put);
                UPDATE anomaly SET restoredAt = CASE
                    WHEN restoredCount > 0 AND recoveredCount + restoredCount >= recordCount
                    THEN (SELECT startedAt FROM capture WHERE capture.id = anomaly.restoredCapture) END
                WHERE restoredCount > 0 OR restoredAt IS NOT NULL;
                """)
    }

    /// A restore identifier's fingerprint and occurrence; nil for any other text.
    static func parse(_ identifier: String) -> (fingerprint: Data, occurrence: Int)? {
        guard identifier.hasPrefix(identifierPrefix) else { return nil }
        let parts = identifier.dropFirst(identifierPrefix.count).split(separator: "-")
        guard parts.count == 2, let occurrence = Int(parts[1]), occurrence >= 0,
            let bytes = HexText.decode(parts[0]), !bytes.isEmpty
        else { return nil }
        return (Data(bytes), occurrence)
    }
}

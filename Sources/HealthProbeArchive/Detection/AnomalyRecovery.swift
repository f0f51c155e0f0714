import Foundation
internal import GRDB

/// A loss whose records came back: when a later capture holds a silent deletion's vanished
/// records again (the absence is in `recordAbsence` with that capture as its return), the
/// anomaly counts how many are back; once all are, it is recovered — with the capture and the
/// moment — and no longer open: not in the verdict, the status or the charts' losses. Nothing
/// is deleted: the anomaly, its records and the trail keep the history.
enum AnomalyRecovery {

    /// "Open": neither resolved by the user, recovered by the data, put back by a restore nor
    /// withdrawn, in SQL.
    static let openCondition =
        "resolvedAt IS NULL AND recoveredAt IS NULL AND restoredAt IS NULL AND withdrawnAt IS NULL"

    /// Counts what `captureID` brought back of each loss, marks the losses now whole as
    /// recovered, and notes both in the trail. Run once the returned records are known
    /// (``CaptureWrite/clearReturned()`` has written their absences).
    static func record(_ db: Database, captureID: Int64, now: Date = Date()) throws {
        let returned = try Row.fetchAll(
            db,
            sql: """
                SELECT a.id AS id, a.recordCount AS total, a.recoveredCount AS before, COUNT(*) AS back
                FROM recordAbsence AS ra
                CROSS JOIN anomalyRecord AS l ON l.recordId = ra.recordId
                CROSS JOIN anomaly AS a ON a.id = l.anomalyId
                WHERE ra.returnCapture = ?
                    AND a.type IN ('\(AnomalyType.silentDeletion.rawValue)', '\(AnomalyType.unrelatedCapture.rawValue)')
                    AND l.role = 'vanished' AND a.recoveredAt IS NULL
                GROUP BY a.id ORDER BY a.id
                """, arguments: [captureID])
        for row in returned {
            let id: Int64 = row["id"]
            let total: Int = row["total"]
            let back = min(total, (row["before"] as Int) + (row["back"] as Int))
            let whole = back >= total
            try db.execute(
                sql: "UPDATE anomaly SET recoveredCount = ?, recoveredCapture = ?, recoveredAt = ? WHERE id = ?",
                arguments: [back, captureID, whole ? now.timeIntervalSince1970 : nil, id])
            try AuditLog.append(
                db, event: .anomalyRecovered, captureID: captureID,
                message: whole
                    ? "anomaly \(id) recovered: all \(EvidenceText.grouped(total)) of its records are back in capture \(captureID)"
                    : "anomaly \(id): \(EvidenceText.grouped(back)) of its \(EvidenceText.grouped(total)) records are back in capture \(captureID)"
            )
        }
    }
}

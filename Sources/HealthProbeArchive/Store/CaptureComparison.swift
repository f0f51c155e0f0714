import Foundation
internal import GRDB

/// What changed between two captures: the records the later one held that the earlier did not
/// (new) and those the earlier held that the later did not (gone), by sample type — or one type
/// by day — with the anomalies the checks in between found.
package struct CaptureComparison: Sendable, Equatable, Encodable {
    package struct Change: Sendable, Equatable, Encodable {
        /// A sample type, or a local day (`2000-01-01`) when one type is shown by day.
        package var key: String
        package var new: Int
        package var gone: Int
    }

    package var from: CaptureSummary
    package var to: CaptureSummary
    /// Set when the changes are one type's, by day.
    package var type: String?
    /// The IANA zone of the days, when the changes are by day.
    package var timeZone: String?
    /// Only what changed, by key.
    package var changes: [Change]
    /// Anomalies found by the captures after the earlier one, up to the later one.
    package var anomalies: [Anomaly]

    package var totalNew: Int { changes.reduce(0) { $0 + $1.new } }
    package var totalGone: Int { changes.reduce(0) { $0 + $1.gone } }
    /// The live path keeps its records apart from exports' and backups' (which share theirs), so
    /// between a live check and either everything differs.
    package var differentOrigins: Bool { (from.origin == .healthkit) != (to.origin == .healthkit) }
}

extension ArchiveStore {
    /// Capture `from` against capture `to` (either order), by type, or by the local days of `zone`
    /// of one type; nil when either is not a complete capture.
    package func compareCaptures(
        from: Int64, to: Int64, byDayOf type: String? = nil, zone: TimeZone
    ) throws -> CaptureComparison? {
        try read { db in
            let sql = "SELECT * FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral) AND id = ?"
            guard let earlier = try CaptureSummary.fetchOne(db, sql: sql, arguments: [from]),
                let later = try CaptureSummary.fetchOne(db, sql: sql, arguments: [to])
            else { return nil }
            let before = try CaptureMembership(capture: earlier.id, origin: earlier.origin, db)
            let after = try CaptureMembership(capture: later.id, origin: later.origin, db)
            // By day, the changes are read by quarter hour and gathered on local days here.
            let key = type == nil ? "type" : LocalQuarters.sql("startDate")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT key, SUM(heldAfter AND NOT heldBefore) AS new, SUM(heldBefore AND NOT heldAfter) AS gone
                    FROM (
                        SELECT \(key) AS key, (\(before.heldSQL)) AS heldBefore, (\(after.heldSQL)) AS heldAfter
                        FROM record WHERE ? IS NULL OR type = ?
                    )
                    WHERE heldBefore != heldAfter
                    GROUP BY key ORDER BY key
                    """, arguments: [type, type])
            let low = min(earlier.id, later.id)
            let high = max(earlier.id, later.id)
            let anomalies = try Anomaly.fetchAll(
                db,
                sql: """
                    SELECT * FROM anomaly WHERE captureId > ? AND captureId <= ? AND (? IS NULL OR sampleType = ?)
                        AND withdrawnAt IS NULL
                    ORDER BY id
                    """, arguments: [low, high, type, type])
            var changes: [CaptureComparison.Change] = []
            var local = LocalDays(zone: zone)
            for row in rows {
                let key: DatabaseValue = row["key"]
                let text =
                    Int64.fromDatabaseValue(key).map { UTCText.day(local.day(ofQuarter: $0)) }
                    ?? String.fromDatabaseValue(key) ?? "-"
                if let last = changes.last, last.key == text {
                    changes[changes.count - 1].new += row["new"] as Int
                    changes[changes.count - 1].gone += row["gone"] as Int
                } else {
                    changes.append(CaptureComparison.Change(key: text, new: row["new"], gone: row["gone"]))
                }
            }
            return CaptureComparison(
                from: earlier, to: later, type: type, timeZone: type == nil ? nil : zone.identifier,
                changes: changes, anomalies: anomalies)
        }
    }
}

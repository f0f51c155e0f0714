import Foundation
import GRDB
import HealthProbeKit

/// The local days whose records changed since a destination's last sync: records that arrived
/// since (ids above its ceiling), records that went since (gone in a later capture) and records
/// that came back since (an absence that ended in a later capture), whatever the reason.
struct ChangedDays {
    static func since(_ state: GraphSyncState, _ db: Database, clock: inout LocalDayClock) throws -> Set<LocalDay> {
        let columns = "kind, startDate, metadata, details"
        let relevant = ArchiveDayReader.relevantRecords
        let cursor = try SQLiteRowCursor(
            db,
            sql: """
                SELECT \(columns) FROM record WHERE id > :ceiling AND \(relevant)
                UNION ALL
                SELECT \(columns) FROM record WHERE goneCapture > :capture AND \(relevant)
                UNION ALL
                SELECT \(columns) FROM record
                WHERE id IN (SELECT recordId FROM recordAbsence WHERE returnCapture > :capture) AND \(relevant)
                """,
            arguments: ["ceiling": state.recordCeiling, "capture": state.captureId])
        return try days(of: cursor, clock: &clock)
    }

    /// The local days of an anomaly's records.
    static func ofAnomaly(_ id: Int64, _ db: Database, clock: inout LocalDayClock) throws -> Set<LocalDay> {
        let cursor = try SQLiteRowCursor(
            db,
            sql: """
                SELECT record.kind, record.startDate, record.metadata, record.details
                FROM anomalyRecord JOIN record ON record.id = anomalyRecord.recordId
                WHERE anomalyRecord.anomalyId = ?
                """,
            arguments: [id])
        return try days(of: cursor, clock: &clock)
    }

    /// The local days of the rows of a `kind, startDate, metadata, details` query.
    private static func days(of cursor: SQLiteRowCursor, clock: inout LocalDayClock) throws -> Set<LocalDay> {
        var days = Set<LocalDay>()
        while try cursor.step() {
            guard let start = cursor.double(1) else { continue }
            if let kind = cursor.bytes(0), kind.elementsEqual(Self.activitySummary) {
                if let day = activityDay(cursor.bytes(3)) { days.insert(day) }
                continue
            }
            days.insert(clock.day(of: start, zoneName: LocalDayClock.zoneName(inMetadata: cursor.bytes(2))))
        }
        return days
    }

    private static let activitySummary = Array("activitySummary".utf8)

    private static func activityDay(_ details: UnsafeBufferPointer<UInt8>?) -> LocalDay? {
        guard let details, let object = try? JSONSerialization.jsonObject(with: Data(details)) as? [String: Any],
            let text = object["day"] as? String
        else { return nil }
        return LocalDay(text)
    }
}

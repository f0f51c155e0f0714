import Foundation
import GRDB

/// Meets each sample of a backup's Health database with the record the archive already holds for
/// it, if any (``BackupImporter``): by the HealthKit UUID an earlier backup bound to a record,
/// else by ``SampleMatchKey`` among the records the previous capture held that no backup has
/// bound yet — what an export described.
struct BackupSampleMatcher {
    private let ingest: CaptureIngest
    /// Nil while no record of the archive carries a sample's UUID (the first backup).
    private let byUUID: Statement?
    private var candidates: SampleMatchIndex?
    private let keyingSources: Bool

    init(_ db: Database, ingest: CaptureIngest, previous: Int64?, keyingSources: Bool) throws {
        self.ingest = ingest
        self.keyingSources = keyingSources
        let bound = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM record WHERE sampleUUID IS NOT NULL)")
        byUUID =
            bound == true
            ? try db.cachedStatement(sql: "SELECT id FROM record WHERE sampleUUID = ? AND lastSeenCapture <> ? LIMIT 1")
            : nil
        candidates = try previous.map { previous in
            try SampleMatchIndex(
                db,
                sql: """
                    SELECT id, type, sourceName, unit, value, numericValue, startDate, endDate FROM record
                    WHERE lastSeenCapture = ? AND goneCapture IS NULL AND sampleUUID IS NULL AND healthKitUUID IS NULL
                        AND \(HealthDatabaseTypes.describedRecordsSQL)
                    """, arguments: [previous], keyingSources: keyingSources)
        }
    }

    /// Whether `record` (a sample of UUID `uuid`) met a record of the archive, now seen by this
    /// capture and bound to the UUID.
    mutating func meet(_ record: HealthRecord, uuid: UUID) throws -> Bool {
        if let byUUID,
            let id = try Int64.fetchOne(
                byUUID, arguments: [withUnsafeBytes(of: uuid.uuid) { Data($0) }, ingest.captureID])
        {
            try ingest.markSeen(recordID: id)
            return true
        }
        guard candidates?.isEmpty == false else { return false }
        let content = SampleMatchKey.Content(
            type: record.type, sourceName: record.sourceName, unit: record.unit, value: record.value,
            numericValue: record.numericValue, startDate: record.startDate, endDate: record.endDate)
        // Taken in place: a copy of the index would copy its arrays on every sample.
        guard let met = candidates?.take(SampleMatchKey.keys(content, includingSource: keyingSources)) else {
            return false
        }
        try ingest.markSeen(recordID: met, sampleUUID: uuid)
        return true
    }
}

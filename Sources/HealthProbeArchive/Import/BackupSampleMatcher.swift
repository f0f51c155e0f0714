import Foundation
internal import GRDB

/// Meets each sample of a backup's Health database with the record the archive already holds for
/// it, if any (for the backup importer): by the HealthKit UUID an earlier backup bound to a record,
/// else by ``SampleMatchKey`` among the records the previous capture held that no backup has
/// bound yet — what an export described. Both indexes are in memory, read in one scan of the
/// archive before the samples are.
///
/// Built by the writer in its transaction, then used by the reading thread alone until that
/// thread is joined; the writer reads it again for the deletions only after. (Hence unchecked:
/// the hand-offs are the thread's start and its join.)
package final class BackupSampleMatcher: @unchecked Sendable {
    /// Every record a backup bound to a UUID, by the UUID's key (its low bit set), and the
    /// records the previous capture held of the kinds a database describes and no backup bound,
    /// by their content's keys (low bit clear): one index, sized from one count.
    private(set) var records: SampleMatchIndex
    private var keyMaker = SampleMatchKey()
    let keyingSources: Bool

    /// What a sample met: a record, and whether it is bound to the sample's UUID now.
    package enum Meeting: Sendable {
        case byUUID(Int64)
        case byContent(Int64)
    }

    init(_ db: Database, previous: Int64?, keyingSources: Bool) throws {
        self.keyingSources = keyingSources
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0
        var builder = SampleMatchIndex.Builder(expected: count + count / 16)
        // One scan for both: records bound to a UUID, and the previous capture's unbound ones.
        let rows = try SQLiteRowCursor(
            db,
            sql: """
                SELECT id, sampleUUID, type, sourceName, unit, value, numericValue, startDate, endDate,
                    sampleUUID IS NULL AND sighting.lastSeenCapture = ?1 AND goneCapture IS NULL AND healthKitUUID IS NULL
                        AND \(HealthDatabaseTypes.describedRecordsSQL)
                FROM record \(RecordSightings.join)
                """, arguments: [previous ?? -1])
        var keyMaker = SampleMatchKey()
        while try rows.step() {
            guard let id = rows.integer(0) else { continue }
            if let uuid = rows.bytes(1), uuid.count == 16 {
                builder.add(id, keys: [Self.uuidKey(SampleMatchKey.key(UnsafeRawBufferPointer(uuid)))])
            } else if rows.integer(9) == 1 {
                let content = SampleMatchKey.Content(rows, from: 2)
                builder.add(id, keys: keyMaker.keys(content, includingSource: keyingSources).map(Self.contentKey))
            }
        }
        records = builder.build()
    }

    static func uuidKey(_ key: UInt64) -> UInt64 { key | 1 }
    static func contentKey(_ key: UInt64) -> UInt64 { key & ~1 }

    /// The record bound to `uuid` before this check, if any.
    func record(boundTo uuid: UUID) -> Int64? {
        records.first(Self.uuidKey(SampleMatchKey.key(uuid)))
    }

    /// The record `sample` is, if the archive holds it.
    package func meet(_ sample: HealthSample) -> Meeting? {
        guard !records.isEmpty else { return nil }
        if let id = records.take([Self.uuidKey(SampleMatchKey.key(sample.uuid))]) { return .byUUID(id) }
        let content = SampleMatchKey.Content(sample)
        return records.take(keyMaker.keys(content, includingSource: keyingSources).map(Self.contentKey))
            .map(Meeting.byContent)
    }
}

import Foundation
internal import GRDB

/// What an export checked after a backup meets that backup's records with: the records a backup
/// described first — sub-second times, the database's units, no export's identity — that the
/// previous capture held, by ``SampleMatchKey``. The capture's write asks it about each record it would
/// store as new; a record met is seen again instead.
final class BackupRecordMatcher {
    private let db: Database
    private var records: SampleMatchIndex
    /// Whether some records have no source name (a database read without `healthdb.sqlite`):
    /// they are keyed without one.
    private let someWithoutSource: Bool
    private var keyMaker = SampleMatchKey()
    /// Whether a record holds an identity slot, bound in place (as is the marker): through GRDB's
    /// arguments, these two were a third of such a check's time.
    private let slot: SQLiteBinding
    private let marker: SeenMarker

    /// Nil when the previous capture held no record a backup described first (or no backup was
    /// ever checked).
    static func make(for writing: CaptureWrite, previous: Int64?) throws -> BackupRecordMatcher? {
        let db = writing.db
        guard let previous,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM capture WHERE origin = ?)",
                arguments: [CaptureOrigin.backup.rawValue])
                == true
        else { return nil }
        let rows = try SQLiteRowCursor(
            db,
            sql: """
                SELECT id, type, sourceName, unit, value, numericValue, startDate, endDate
                FROM record \(RecordSightings.join)
                WHERE sampleUUID IS NOT NULL AND sighting.lastSeenCapture = ? AND goneCapture IS NULL
                    AND firstSeenCapture IN (SELECT id FROM capture WHERE origin = ?)
                """, arguments: [previous, CaptureOrigin.backup.rawValue])
        // Room for every record: only what is filled takes memory.
        var builder = SampleMatchIndex.Builder(expected: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0)
        var keyMaker = SampleMatchKey()
        var someWithoutSource = false
        while try rows.step() {
            guard let id = rows.integer(0) else { continue }
            let content = SampleMatchKey.Content(rows, from: 1)
            let sourceless = content.sourceName?.isEmpty ?? true
            someWithoutSource = someWithoutSource || sourceless
            builder.add(id, keys: [keyMaker.truncatedKey(content, includingSource: !sourceless)])
        }
        let records = builder.build()
        guard !records.isEmpty else { return nil }
        return try BackupRecordMatcher(writing, records, someWithoutSource: someWithoutSource)
    }

    private init(_ writing: CaptureWrite, _ records: SampleMatchIndex, someWithoutSource: Bool) throws {
        db = writing.db
        self.records = records
        self.someWithoutSource = someWithoutSource
        slot = SQLiteBinding(
            statement: try db.cachedStatement(sql: "SELECT 1 FROM record WHERE identityKey = ? AND occurrence = ?"))
        marker = try SeenMarker(writing)
    }

    /// The id of the backup's record that `row`, about to be stored at `occurrence`, is — now
    /// seen by the capture — or nil: then it is new. A row whose identity slot is held is no
    /// new record, and is not asked about.
    func meet(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer, occurrence: Int64) throws -> Int64? {
        guard !records.isEmpty else { return nil }
        slot.bind(1, row.identityKey)
        slot.bind(2, occurrence)
        guard try slot.stepReturningInteger(db) == nil else { return nil }
        func text(_ span: PreparedBatch.Span) -> String? {
            span.isNull ? nil : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.range]), as: UTF8.self)
        }
        let content = SampleMatchKey.Content(
            type: text(row.text.type) ?? "", sourceName: text(row.text.sourceName), unit: text(row.text.unit),
            value: text(row.text.value), numericValue: row.numbers.numericValue, startDate: row.numbers.startDate,
            endDate: row.numbers.endDate)
        var keys = keyMaker.exportKeys(content, includingSource: true)
        if someWithoutSource { keys += keyMaker.exportKeys(content, includingSource: false) }
        guard let met = records.take(keys) else { return nil }
        try marker.mark(met, uuid: nil)
        return met
    }
}

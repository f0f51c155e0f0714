import Foundation
import GRDB

extension CaptureIngest {
    /// When the record just inserted (row `inserted`) is one a backup described first — the
    /// same sample with sub-second times, the database's units and no export's identity — the
    /// insert is taken back and that record is seen again instead; returns its id.
    func meetBackupRecord(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer, inserted: Int64) throws -> Int64? {
        guard backupRecords?.isEmpty == false else { return nil }
        func text(_ span: PreparedBatch.Span) -> String? {
            span.isNull ? nil : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.range]), as: UTF8.self)
        }
        let content = SampleMatchKey.Content(
            type: text(row.text.type) ?? "", sourceName: text(row.text.sourceName), unit: text(row.text.unit),
            value: text(row.text.value), numericValue: row.numbers.numericValue, startDate: row.numbers.startDate,
            endDate: row.numbers.endDate)
        var keys = SampleMatchKey.keys(content, includingSource: true)
        if backupRecords?.hasSourceless == true { keys += SampleMatchKey.keys(content, includingSource: false) }
        // Taken in place: a copy of the index would copy its arrays on every record.
        guard let met = backupRecords?.take(keys) else { return nil }
        try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [inserted])
        try markSeen(recordID: met)
        matchedBackupRecords += 1
        return met
    }

    /// Marks a record seen by this capture, found by id; `sampleUUID`, when given, is the UUID a
    /// backup gives it from now on.
    func markSeen(recordID: Int64, sampleUUID: UUID? = nil) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2,
                    sampleUUID = IFNULL(?3, sampleUUID)
                WHERE id = ?4 AND lastSeenCapture <> ?1
                """)
        try statement.execute(arguments: [
            captureID, verifiedAt, sampleUUID.map { withUnsafeBytes(of: $0.uuid) { Data($0) } }, recordID,
        ])
    }

    /// The records a backup described first that `previous` held: what an export checked after it
    /// must meet by ``SampleMatchKey``. Nil when there are none (no backup was ever checked).
    static func backupRecords(_ db: Database, previous: Int64?) throws -> SampleMatchIndex? {
        guard let previous,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM capture WHERE origin = ?)", arguments: [CaptureOrigin.backup])
                == true
        else { return nil }
        let index = try SampleMatchIndex(
            db,
            sql: """
                SELECT id, type, sourceName, unit, value, numericValue, startDate, endDate FROM record
                WHERE sampleUUID IS NOT NULL AND lastSeenCapture = ? AND goneCapture IS NULL
                    AND firstSeenCapture IN (SELECT id FROM capture WHERE origin = ?)
                """, arguments: [previous, CaptureOrigin.backup])
        return index.isEmpty ? nil : index
    }
}

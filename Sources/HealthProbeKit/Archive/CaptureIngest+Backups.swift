import Foundation
import GRDB

extension CaptureIngest {
    /// When a record about to be stored as new is one a backup described first — the same
    /// sample with sub-second times, the database's units and no export's identity — that
    /// record is seen again instead; returns its id.
    func meetBackupRecord(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer) throws -> Int64? {
        guard backupRecords?.isEmpty == false else { return nil }
        func text(_ span: PreparedBatch.Span) -> String? {
            span.isNull ? nil : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.range]), as: UTF8.self)
        }
        let content = SampleMatchKey.Content(
            type: text(row.text.type) ?? "", sourceName: text(row.text.sourceName), unit: text(row.text.unit),
            value: text(row.text.value), numericValue: row.numbers.numericValue, startDate: row.numbers.startDate,
            endDate: row.numbers.endDate)
        var keys = backupKeyMaker.exportKeys(content, includingSource: true)
        if backupRecordsWithoutSource { keys += backupKeyMaker.exportKeys(content, includingSource: false) }
        // Taken in place: a copy of the index would copy its arrays on every record.
        guard let met = backupRecords?.take(keys) else { return nil }
        try markSeen(recordID: met)
        matchedBackupRecords += 1
        return met
    }

    /// Whether a record holds identity slot (`key`, `occurrence`): an insert there would not be one.
    func slotTaken(_ key: Int64, _ occurrence: Int64) throws -> Bool {
        let statement = try db.cachedStatement(
            sql: "SELECT EXISTS (SELECT 1 FROM record WHERE identityKey = ? AND occurrence = ?)")
        return try Bool.fetchOne(statement, arguments: [key, occurrence]) ?? false
    }

    /// Marks a record seen by this capture, found by id.
    func markSeen(recordID: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2
                WHERE id = ?3 AND lastSeenCapture <> ?1
                """)
        try statement.execute(arguments: [captureID, verifiedAt, recordID])
    }

    /// The records a backup described first that `previous` held: what an export checked after it
    /// must meet by ``SampleMatchKey``; those without a source name (a database read without
    /// `healthdb.sqlite`) keyed without one. Nil when there are none (no backup was ever checked).
    static func backupRecords(_ db: Database, previous: Int64?) throws -> (SampleMatchIndex, withoutSource: Bool)? {
        guard let previous,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM capture WHERE origin = ?)", arguments: [CaptureOrigin.backup])
                == true
        else { return nil }
        let rows = try SQLiteRowCursor(
            db,
            sql: """
                SELECT id, type, sourceName, unit, value, numericValue, startDate, endDate FROM record
                WHERE sampleUUID IS NOT NULL AND lastSeenCapture = ? AND goneCapture IS NULL
                    AND firstSeenCapture IN (SELECT id FROM capture WHERE origin = ?)
                """, arguments: [previous, CaptureOrigin.backup])
        // Room for every record: only what is filled takes memory.
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0
        var builder = SampleMatchIndex.Builder(expected: count)
        var keyMaker = SampleMatchKey()
        var withoutSource = false
        while try rows.step() {
            guard let id = rows.integer(0) else { continue }
            let source = rows.string(2)
            let sourceless = source?.isEmpty ?? true
            withoutSource = withoutSource || sourceless
            let content = SampleMatchKey.Content(
                type: rows.string(1) ?? "", sourceName: source, unit: rows.string(3), value: rows.string(4),
                numericValue: rows.double(5), startDate: rows.double(6), endDate: rows.double(7))
            builder.add(id, keys: [keyMaker.truncatedKey(content, includingSource: !sourceless)])
        }
        let index = builder.build()
        return index.isEmpty ? nil : (index, withoutSource)
    }
}

/// Marks records seen by id — a backup's samples met by UUID or by content — binding a UUID where
/// one is given, and counts what each record holds into the capture's totals as it goes
/// (`UPDATE … RETURNING`), so that no scan of the archive is needed for them after.
final class SeenMarker {
    private let db: Database
    private let statement: Statement
    private let cursor: SQLiteRowCursor
    private let captureID: Int64
    private let verifiedAt: Double
    private var columns = CaptureAggregates.TotalsColumns()

    init(_ ingest: CaptureIngest) throws {
        db = ingest.db
        captureID = ingest.captureID
        verifiedAt = ingest.verifiedAt
        statement = try db.cachedStatement(
            sql: """
                UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2,
                    sampleUUID = IFNULL(?3, sampleUUID)
                WHERE id = ?4 AND lastSeenCapture <> ?1
                RETURNING type, sourceName, numericValue, startDate, strictFingerprint
                """)
        cursor = SQLiteRowCursor(db, statement: statement)
    }

    func mark(_ recordID: Int64, uuid: UUID?, into aggregates: inout CaptureAggregates) throws {
        try statement.setArguments([
            captureID, verifiedAt, uuid.map { withUnsafeBytes(of: $0.uuid) { Data($0) } }, recordID,
        ])
        if try cursor.step() { columns.add(cursor, to: &aggregates) }
        // Stepped to its end: a statement left in progress would keep the transaction from committing.
        while try cursor.step() {}
    }

    /// Carries over what a database does not describe, held by this capture as by the previous,
    /// neither verified nor judged, counting it into `aggregates`; returns how many records.
    static func carryOver(captureID: Int64, into aggregates: inout CaptureAggregates, _ db: Database) throws -> Int {
        let rows = try SQLiteRowCursor(
            db,
            sql: """
                UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1
                WHERE goneCapture IS NULL AND lastSeenCapture <> ?1 AND healthKitUUID IS NULL
                RETURNING type, sourceName, numericValue, startDate, strictFingerprint
                """, arguments: [captureID])
        var columns = CaptureAggregates.TotalsColumns()
        var carried = 0
        while try rows.step() {
            carried += 1
            columns.add(rows, to: &aggregates)
        }
        return carried
    }
}

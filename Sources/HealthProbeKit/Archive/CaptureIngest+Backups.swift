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
        let query = try backupStatements().slot
        query.bind(1, key)
        query.bind(2, occurrence)
        return try query.stepReturningInteger(db) != nil
    }

    /// Marks a record seen by this capture, found by id.
    func markSeen(recordID: Int64) throws {
        let update = try backupStatements().markSeen
        update.bind(3, recordID)
        _ = try update.stepCountingChanges(db)
    }

    /// The two statements an export checked after a backup runs for each record it does not
    /// know, bound in place (through GRDB's arguments they were a third of that check's time).
    private func backupStatements() throws -> (slot: SQLiteBinding, markSeen: SQLiteBinding) {
        if let statements = backupMatchStatements { return statements }
        let markSeen = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2
                    WHERE id = ?3 AND lastSeenCapture <> ?1
                    """))
        markSeen.bind(1, captureID)
        markSeen.bind(2, verifiedAt)
        let slot = SQLiteBinding(
            statement: try db.cachedStatement(sql: "SELECT 1 FROM record WHERE identityKey = ? AND occurrence = ?"))
        backupMatchStatements = (slot, markSeen)
        return (slot, markSeen)
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
/// one is given: one cached statement bound in place, a million times on a second backup.
/// (`UPDATE … RETURNING` would count each record's totals as it goes, but SQLite runs it through
/// a temporary table on every execution: more than half a check's time. One scan after is less.)
final class SeenMarker {
    private let db: Database
    private let binding: SQLiteBinding
    private(set) var marked = 0

    init(_ ingest: CaptureIngest) throws {
        db = ingest.db
        binding = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1, lastVerifiedAt = ?2,
                        sampleUUID = IFNULL(?3, sampleUUID)
                    WHERE id = ?4 AND lastSeenCapture <> ?1
                    """))
        binding.bind(1, ingest.captureID)
        binding.bind(2, ingest.verifiedAt)
    }

    func mark(_ recordID: Int64, uuid: UUID?) throws {
        if let uuid {
            withUnsafeBytes(of: uuid.uuid) { binding.bindBlob(3, copying: $0) }
        } else {
            binding.bindNull(3)
        }
        binding.bind(4, recordID)
        marked += try binding.stepCountingChanges(db)
    }

    /// Carries over what a database does not describe, held by this capture as by the previous,
    /// neither verified nor judged; returns how many records.
    static func carryOver(captureID: Int64, _ db: Database) throws -> Int {
        try db.execute(
            sql: """
                UPDATE record SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1
                WHERE goneCapture IS NULL AND lastSeenCapture <> ?1 AND healthKitUUID IS NULL
                """, arguments: [captureID])
        return db.changesCount
    }
}

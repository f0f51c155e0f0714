import Foundation
import GRDB

/// Stores one capture's records inside a single write transaction: each record is matched to the
/// archive by (strict fingerprint, occurrence) — seen again, or new — and identical copies
/// within the capture take the next occurrence, so they are counted as a multiset.
///
/// The unique index holds a 64-bit key (`Fingerprint.key(startingAt:)`: the start hour, then
/// fingerprint bits), so that an export's inserts walk the index in time order; the upsert
/// confirms the whole fingerprint, and a record whose key collides with another's simply takes
/// the next occurrence.
final class CaptureIngest {
    let db: Database
    let captureID: Int64
    let previousCaptureID: Int64?
    private let upsert: SQLiteBinding
    private let lookup: Statement
    private(set) var records = 0
    private let verifiedAt: Double
    /// Whether the archive held no record when this capture began: then every record is new and
    /// nothing can be gone, without scanning the table to find out.
    let startedEmpty: Bool
    /// The largest record id before this capture: the rows it inserts (records never seen
    /// before) are exactly those above it, since one transaction writes them all.
    let recordIDFloor: Int64

    /// `recordIDFloor` is given when the capture is written over several transactions (the live
    /// path): then the floor was taken when the capture began, and every add is an upsert.
    init(
        db: Database, captureID: Int64, previousCaptureID: Int64?, verifiedAt: Double, recordIDFloor: Int64? = nil
    ) throws {
        self.db = db
        self.captureID = captureID
        self.previousCaptureID = previousCaptureID
        self.verifiedAt = verifiedAt
        if let recordIDFloor {
            startedEmpty = false
            self.recordIDFloor = recordIDFloor
        } else {
            let largestID = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record")
            startedEmpty = largestID == nil
            self.recordIDFloor = largestID ?? 0
        }
        // Into an empty archive every conflict is with a copy this capture stored: a plain insert
        // that yields the occurrence to the next copy is enough, and cheaper than the upsert.
        let conflict = startedEmpty ? "" : Self.seenAgain
        upsert = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    INSERT \(startedEmpty ? "OR IGNORE " : "")INTO record (
                        kind, type, sourceName, sourceVersion, deviceId, unit, value, numericValue,
                        creationDate, startDate, endDate, metadata, details, healthKitUUID,
                        strictFingerprint, semanticFingerprint, fuzzyFingerprint, occurrence,
                        firstSeenCapture, lastSeenCapture, lastVerifiedAt, identityKey, semanticKey)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?19, ?20, ?21, ?22)
                    \(conflict)
                    """))
        lookup = try db.cachedStatement(
            sql: "SELECT id FROM record WHERE identityKey = ? AND occurrence = ? AND strictFingerprint = ?")
    }

    /// A record already in the archive is marked seen again, unless this capture already did
    /// (then the copy takes the next occurrence) or only the 64-bit key matches. A record that
    /// had gone keeps its gone mark until the capture completes, so that the detectors can tell
    /// a return from an arrival (``clearReturned()``).
    private static let seenAgain = """
        ON CONFLICT (identityKey, occurrence) DO UPDATE SET
            previousSeenCapture = record.lastSeenCapture,
            lastSeenCapture = excluded.lastSeenCapture,
            lastVerifiedAt = excluded.lastVerifiedAt
        WHERE record.lastSeenCapture <> excluded.lastSeenCapture
            AND record.strictFingerprint = excluded.strictFingerprint
        """

    /// More identical copies than any export holds: past this, something is wrong, not a copy.
    static let maximumOccurrences: Int64 = 1 << 24

    /// Stores a batch of records, in order.
    func add(_ batch: PreparedBatch) throws {
        try batch.bytes.withUnsafeBytes { bytes in
            for index in batch.rows.indices {
                try add(batch.rows[index], extras: batch.extras.isEmpty ? nil : batch.extras[index], bytes)
            }
        }
    }

    private func add(
        _ row: PreparedBatch.Row, extras: PreparedBatch.Extras?, _ bytes: UnsafeRawBufferPointer
    ) throws {
        records += 1
        try bindContent(row, bytes)
        var occurrence: Int64 = 0
        while true {
            upsert.bind(18, occurrence)
            if try upsert.stepChangingRow(db) {
                if let extras { try remember(extras, row, bytes, occurrence: occurrence) }
                return
            }
            // This copy was already stored by this capture: the next one is another occurrence.
            occurrence += 1
            guard occurrence < Self.maximumOccurrences else {
                throw ArchiveError.storage(problem: "a record could not be stored (\(occurrence) attempts)")
            }
        }
    }

    /// Device descriptions repeat on nearly every record; each is stored once. The few most
    /// recent are compared byte for byte, the rest found by text.
    private var deviceIDs: [String: Int64] = [:]
    private var recentDevices: [(bytes: [UInt8], id: Int64)] = []

    private func deviceID(_ span: PreparedBatch.Span, _ bytes: UnsafeRawBufferPointer) throws -> Int64? {
        guard !span.isNull else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[Int(span.offset)..<Int(span.offset + span.length)])
        for recent in recentDevices
        where recent.bytes.count == text.count
            && recent.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 })
        {
            return recent.id
        }
        let id = try lookUpDeviceID(String(decoding: text, as: UTF8.self))
        recentDevices.insert((Array(text), id), at: 0)
        if recentDevices.count > 4 { recentDevices.removeLast() }
        return id
    }

    private func lookUpDeviceID(_ description: String) throws -> Int64 {
        if let known = deviceIDs[description] { return known }
        try db.execute(sql: "INSERT OR IGNORE INTO device (description) VALUES (?)", arguments: [description])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE description = ?", arguments: [description])!
        if deviceIDs.count < 65_536 { deviceIDs[description] = id }
        return id
    }

    private func bindContent(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer) throws {
        upsert.bindText(1, row.kind, in: bytes)
        upsert.bindText(2, row.type, in: bytes)
        upsert.bindText(3, row.sourceName, in: bytes)
        upsert.bindText(4, row.sourceVersion, in: bytes)
        upsert.bind(5, try deviceID(row.device, bytes))
        upsert.bindText(6, row.unit, in: bytes)
        upsert.bindText(7, row.value, in: bytes)
        upsert.bind(8, row.numericValue)
        upsert.bind(9, row.creationDate)
        upsert.bind(10, row.startDate)
        upsert.bind(11, row.endDate)
        upsert.bindText(12, row.metadata, in: bytes)
        upsert.bindText(13, row.details, in: bytes)
        upsert.bindText(14, row.healthKitUUID, in: bytes)
        upsert.bindBlob(15, row.strictFingerprint, in: bytes)
        upsert.bindBlob(16, row.semanticFingerprint, in: bytes)
        upsert.bindBlob(17, row.fuzzyFingerprint, in: bytes)
        upsert.bind(19, captureID)
        upsert.bind(20, verifiedAt)
        upsert.bind(21, row.identityKey)
        upsert.bind(22, row.semanticKey)
    }

    /// Stores what must be resolved once every record is in: the samples a correlation holds,
    /// and the GPX files a workout refers to. Kept in the archive, not in memory, so that memory
    /// stays flat whatever the export's size.
    private func remember(
        _ extras: PreparedBatch.Extras, _ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer, occurrence: Int64
    ) throws {
        // A plain insert (an empty archive) knows the row it made; an upsert must look it up.
        let id: Int64
        if startedEmpty {
            id = db.lastInsertedRowID
        } else {
            let strict = Data(bytes[Int(row.strictFingerprint.offset)..<Int(row.strictFingerprint.offset + 16)])
            guard let found = try Int64.fetchOne(lookup, arguments: [row.identityKey, occurrence, strict])
            else { return }
            id = found
        }
        if !extras.members.isEmpty {
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO correlationMember (correlationId, memberKey, memberFingerprint)
                    SELECT ?1, ?2, ?3 WHERE NOT EXISTS (
                        SELECT 1 FROM correlationMember WHERE correlationId = ?1 AND memberFingerprint = ?3)
                    """)
            for member in extras.members {
                try insert.execute(arguments: [id, member.key, Data(member.semantic.bytes)])
            }
        }
        if !extras.routeFiles.isEmpty {
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO routeFile (captureId, recordId, path) VALUES (?, ?, ?)")
            for path in extras.routeFiles { try insert.execute(arguments: [captureID, id, path]) }
        }
    }

    /// Links correlations to the top-level copies of the samples they hold, so that the copies
    /// are never taken for duplicates.
    func linkCorrelations() throws {
        // One statement, driven by this capture's correlation members (few), each member found
        // through the semantic index: SQLite never scans the record table here.
        try db.execute(
            sql: """
                UPDATE record SET correlationId = m.correlationId
                FROM correlationMember AS m CROSS JOIN record AS c
                WHERE c.id = m.correlationId AND c.lastSeenCapture = :capture
                    AND record.semanticKey = m.memberKey AND record.semanticFingerprint = m.memberFingerprint
                    AND record.lastSeenCapture = :capture AND record.kind = 'record'
                """, arguments: ["capture": captureID])
    }

    /// Records of this capture that the previous full capture did not hold: those never seen
    /// before (rows above the floor that this capture first saw — another writer's rows may
    /// interleave with a live capture's) and those that had gone and came back.
    func countNew() throws -> Int {
        if startedEmpty { return records }
        let inserted =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE id > ? AND firstSeenCapture = ?",
                arguments: [recordIDFloor, captureID]) ?? 0
        return inserted + (try countReturned())
    }

    /// Records that had gone from an earlier capture and are back in this one.
    func countReturned() throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL AND lastSeenCapture = ?",
            arguments: [captureID]) ?? 0
    }

    /// Clears the gone mark of records that came back; the detectors have read it by then.
    func clearReturned() throws {
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = NULL, goneReason = NULL
                WHERE goneCapture IS NOT NULL AND lastSeenCapture = ?
                """, arguments: [captureID])
    }

    /// Marks what this full export capture no longer holds as gone; returns how many records that
    /// is. Records of the live path (with a HealthKit UUID) are not the export's to judge.
    func markGone() throws -> Int {
        if startedEmpty { return 0 }
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = :capture, goneReason = 'absent'
                WHERE goneCapture IS NULL AND lastSeenCapture <> :capture AND healthKitUUID IS NULL
                """, arguments: ["capture": captureID])
        return db.changesCount
    }

    /// Stores the per-type totals gathered while the records streamed past (by the
    /// fingerprinting stage, off the writer's thread).
    func writeAggregates(_ aggregates: CaptureAggregates) throws {
        let snapshot = try db.cachedStatement(
            sql: "INSERT INTO typeSnapshot (captureId, type, count, checksum, sourceCounts) VALUES (?, ?, ?, ?, ?)")
        let bin = try db.cachedStatement(
            sql: """
                INSERT INTO typeDayBin (captureId, type, day, count, contentHash, valueSum, valueCount)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for (type, totals) in aggregates.types {
            try snapshot.execute(arguments: [
                captureID, type, totals.count, HexText.encode(totals.checksum), totals.sourceCountsJSON,
            ])
            for (day, dayBin) in totals.days {
                try bin.execute(arguments: [
                    captureID, type, day, dayBin.count, HexText.encode(dayBin.hash),
                    dayBin.valueCount > 0 ? dayBin.valueSum : nil, dayBin.valueCount,
                ])
            }
        }
    }
}

import Foundation
internal import GRDB

/// Stores one capture's records inside a single write transaction: each record is matched to the
/// archive by (strict fingerprint, occurrence) — seen again, or new — and identical copies
/// within the capture take the next occurrence, so they are counted as a multiset.
///
/// The unique index holds a 64-bit key (`Fingerprint.key(startingAt:)`: the start hour, then
/// fingerprint bits), so that an export's inserts walk the index in time order; marking a
/// record seen confirms the whole fingerprint, and a record whose key collides with another's
/// simply takes the next occurrence. What changes at each capture, its sightings, is written to
/// `recordSighting`, not to the record's row (``RecordSightings``).
final class CaptureWrite {
    let db: Database
    let captureID: Int64
    let previousCaptureID: Int64?
    private let insert: SQLiteBinding
    /// Into an archive that holds records, most records of a capture are seen again: this marks
    /// one by its identity alone, before the insert binds and builds a whole row — unless this
    /// capture already did (then the copy takes the next occurrence) or only the 64-bit key
    /// matches. A record that had gone keeps its gone mark until the capture completes, so that
    /// the detectors can tell a return from an arrival (``clearReturned()``).
    private let markSeen: SQLiteBinding?
    /// The sighting of each record this capture stores.
    let firstSightings: FirstSightings
    /// Many rows a statement, for a capture into an empty archive.
    private let appender: RowAppender?
    private let lookup: Statement
    let devices = DeviceTable()
    var records = 0
    /// How many files were read while the capture is written: they wait in a temporary table
    /// for the records that refer to them (``ReferencedFiles/remember(_:problem:in:)``).
    var filesRead = 0
    /// Whether the archive held no record when this capture began: then every record is new and
    /// nothing can be gone, without scanning the table to find out.
    let startedEmpty: Bool
    /// The largest record id before this capture: the rows it inserts (records never seen
    /// before) are exactly those above it, since one transaction writes them all.
    let recordIDFloor: Int64

    /// For an export checked after a backup: the records that backup described first, which
    /// this export meets with whole seconds and its own units (``BackupRecordMatcher``).
    var backupRecords: BackupRecordMatcher?
    /// Whether every add inserts: a backup's samples are matched to the archive before they
    /// reach the capture's write (by UUID, then by ``SampleMatchKey``), so what comes is new.
    private let insertsOnly: Bool
    /// Where the next copy of a record this capture holds more than once goes.
    private var repeats = RepeatedRecords()
    /// See ``extrasStatements()``.
    private var extras: ExtrasStatements?

    /// `recordIDFloor` is given when the capture is written over several transactions (the live
    /// path): then the floor was taken when the capture began, and every add first looks for the record.
    init(
        db: Database, captureID: Int64, previousCaptureID: Int64?, recordIDFloor: Int64? = nil,
        insertsOnly: Bool = false
    ) throws {
        self.insertsOnly = insertsOnly
        self.db = db
        self.captureID = captureID
        self.previousCaptureID = previousCaptureID
        if let recordIDFloor {
            startedEmpty = false
            self.recordIDFloor = recordIDFloor
        } else {
            let largestID = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record")
            startedEmpty = largestID == nil
            self.recordIDFloor = largestID ?? 0
        }
        // Into an empty archive every conflict is with a copy this capture stored: a plain insert
        // that yields the occurrence to the next copy is enough, and cheaper than looking each record up.
        let plainInsert = startedEmpty || insertsOnly
        // Where a stored record holds this identity, `markSeen` has just met it or found it
        // another's: the insert yields to it, and the copy takes the next occurrence.
        insert = SQLiteBinding(
            statement: try db.cachedStatement(
                sql: """
                    INSERT \(plainInsert ? "OR IGNORE " : "")INTO record (\(Self.columns))
                    VALUES \(Self.values(captureID: captureID, firstParameter: 1, occurrence: "?\(1 + Self.parametersPerRow)"))
                    \(plainInsert ? "" : "ON CONFLICT (identityKey, occurrence) DO NOTHING")
                    """))
        markSeen =
            plainInsert
            ? nil
            : SQLiteBinding(
                statement: try db.cachedStatement(
                    sql: """
                        UPDATE recordSighting SET previousSeenCapture = lastSeenCapture, lastSeenCapture = \(captureID)
                        WHERE recordId = (
                                SELECT id FROM record WHERE identityKey = ?1 AND occurrence = ?2 AND strictFingerprint = ?3)
                            AND lastSeenCapture <> \(captureID)
                        """))
        firstSightings = try FirstSightings(db, captureID: captureID)
        appender =
            startedEmpty
            ? try RowAppender(db: db, captureID: captureID, largestRowID: self.recordIDFloor)
            : nil
        lookup = try db.cachedStatement(
            sql: "SELECT id FROM record WHERE identityKey = ? AND occurrence = ? AND strictFingerprint = ?")
    }

    /// More identical copies than any export holds: past this, something is wrong, not a copy.
    static let maximumOccurrences: Int64 = 1 << 24

    /// Stores a batch of records, in order; every row has its fingerprints by now.
    func add(_ batch: PreparedBatch) throws {
        precondition(batch.fingerprintedRows == batch.count, "a batch reached the writer before its fingerprints")
        if !batch.dayBins.isEmpty { try writeDayBins(batch.dayBins) }
        try batch.bytes.withUnsafeBytes { bytes in
            var index = 0
            if let appender {
                while index + RowAppender.rowsPerStatement <= batch.rows.count {
                    try append(batch, rows: index..<(index + RowAppender.rowsPerStatement), bytes, with: appender)
                    index += RowAppender.rowsPerStatement
                }
            }
            while index < batch.rows.count {
                try add(batch.rows[index], extras: batch.extras(at: index), bytes)
                index += 1
            }
        }
    }

    func add(_ row: PreparedBatch.Row, extras: PreparedBatch.Extras?, _ bytes: UnsafeRawBufferPointer) throws {
        records += 1
        if let markSeen {
            markSeen.bind(1, row.identityKey)
            markSeen.bindBlob(3, row.strictFingerprint, in: bytes)
        }
        var rowBound = false
        let fingerprint = UnsafeRawBufferPointer(rebasing: bytes[row.strictFingerprint.range])
        var occurrence = repeats.nextOccurrence(of: row.identityKey, fingerprint: fingerprint)
        defer { if occurrence > 0 { repeats.stored(row.identityKey, fingerprint: fingerprint, at: occurrence) } }
        while true {
            if let markSeen {
                markSeen.bind(2, occurrence)
                if try markSeen.stepCountingChanges(db) > 0 {
                    if let extras { try remember(extras, recordID: try seenID(row, bytes, occurrence: occurrence)) }
                    return
                }
            }
            // A record the strict identity does not know may be one a backup described first.
            if markSeen != nil, let met = try backupRecords?.meet(row, bytes, occurrence: occurrence) {
                if let extras { try remember(extras, recordID: met) }
                return
            }
            if !rowBound {
                try bind(row, bytes, to: insert, at: 1)
                rowBound = true
            }
            insert.bind(1 + Self.parametersPerRow, occurrence)
            if try insert.stepCountingChanges(db) > 0 {
                let id = db.lastInsertedRowID
                appender?.largestRowID = id
                try firstSightings.write(id)
                if let extras { try remember(extras, recordID: id) }
                return
            }
            // This copy was already stored by this capture: the next one is another occurrence.
            occurrence += 1
            guard occurrence < Self.maximumOccurrences else {
                throw ArchiveError.storage(problem: "a record could not be stored (\(occurrence) attempts)")
            }
        }
    }

    /// The id of the record `markSeen` just marked; nil when it cannot be found.
    private func seenID(_ row: PreparedBatch.Row, _ bytes: UnsafeRawBufferPointer, occurrence: Int64) throws
        -> Int64?
    {
        let strict = Data(bytes[row.strictFingerprint.range])
        return try Int64.fetchOne(lookup, arguments: [row.identityKey, occurrence, strict])
    }

    /// Links correlations to the top-level copies of the samples they hold, so that the copies
    /// are never taken for duplicates.
    ///
    /// Into an empty archive, ids follow the export's order: the copies stored before a
    /// correlation were linked when it was stored (``remember(_:recordID:)``,
    /// while their pages were still in memory), so only copies after it are left. SQLite tells
    /// those apart on the index entry, by row id, without reading the rows of the others.
    func linkCorrelations() throws {
        // One statement, driven by this capture's correlation members (few), each member found
        // through the semantic index: SQLite never scans the record table here. Copies an
        // earlier capture linked already are not written again.
        try db.execute(
            sql: """
                UPDATE record SET correlationId = m.correlationId
                FROM correlationMember AS m CROSS JOIN recordSighting AS c
                WHERE c.recordId = m.correlationId AND c.lastSeenCapture = :capture
                    AND record.semanticKey = m.memberKey \(startedEmpty ? "AND record.id > m.correlationId" : "")
                    AND record.semanticFingerprint = m.memberFingerprint
                    AND record.kind = 'record' AND record.correlationId IS NOT m.correlationId
                    AND \(RecordSightings.lastSeen) = :capture
                """, arguments: ["capture": captureID])
    }

    /// The statements a record's extras are stored with, made when the first is stored.
    func extrasStatements() throws -> ExtrasStatements {
        if let extras { return extras }
        let made = try ExtrasStatements(db, captureID: captureID, linkingEarlierCopies: startedEmpty)
        extras = made
        return made
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
            db,
            sql: """
                SELECT COUNT(*) FROM record \(RecordSightings.join)
                WHERE goneCapture IS NOT NULL AND sighting.lastSeenCapture = ?
                """,
            arguments: [captureID]) ?? 0
    }

    /// Clears the gone mark of records that came back; the detectors have read it by then.
    func clearReturned() throws {
        // The absence is remembered first, so that the capture it spanned can still be exported
        // exactly as it was.
        try db.execute(
            sql: """
                INSERT INTO recordAbsence (recordId, lastSeenCapture, goneCapture, goneReason, returnCapture)
                SELECT id, sighting.previousSeenCapture, goneCapture, goneReason, sighting.lastSeenCapture
                FROM record \(RecordSightings.join)
                WHERE goneCapture IS NOT NULL AND goneCapture <> ?1 AND sighting.lastSeenCapture = ?1
                """, arguments: [captureID])
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = NULL, goneReason = NULL
                WHERE goneCapture IS NOT NULL AND goneCapture <> ?1 AND \(RecordSightings.lastSeen) = ?1
                """, arguments: [captureID])
    }

    /// Marks what this full export capture no longer holds as gone; returns how many records that
    /// is. Records of the live path (with a HealthKit UUID) are not the export's to judge. Found
    /// from the narrow sightings, not by reading every record's row.
    func markGone() throws -> Int {
        if startedEmpty { return 0 }
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = :capture, goneReason = \(GoneReason.absent.sqlLiteral)
                WHERE id IN (SELECT recordId FROM recordSighting WHERE lastSeenCapture <> :capture)
                    AND goneCapture IS NULL AND healthKitUUID IS NULL
                """, arguments: ["capture": captureID])
        return db.changesCount
    }

    /// Stores the per-type totals gathered while the records streamed past (by the
    /// fingerprinting stage, off the writer's thread), with the day bins not handed over before.
    func writeAggregates(_ aggregates: CaptureAggregates) throws {
        let snapshot = try db.cachedStatement(
            sql: "INSERT INTO typeSnapshot (captureId, type, count, checksum, sourceCounts) VALUES (?, ?, ?, ?, ?)")
        var bins: [CaptureAggregates.SpilledBin] = []
        for (type, totals) in aggregates.types {
            var flushed = totals
            flushed.flushPendingSource()
            try SourceArrival.record(
                db, type: type, firstWritten: flushed.firstWritten, enteredByHand: flushed.enteredByHand)
            try snapshot.execute(arguments: [
                captureID, type, totals.count, HexText.encode(totals.checksum), totals.sourceCountsJSON,
            ])
            for (day, dayBin) in totals.days { bins.append(.init(type: type, day: day, bin: dayBin)) }
        }
        try writeDayBins(bins, addingToStored: aggregates.spilledDays)
    }

    /// Stores day bins of this capture, each added to the one stored before for its type and day
    /// (bins handed over early: the export listed the type's records in more than one place).
    func writeDayBins(_ bins: [CaptureAggregates.SpilledBin], addingToStored: Bool = true) throws {
        let stored =
            addingToStored
            ? try db.cachedStatement(
                sql: """
                    SELECT count, contentHash, valueSum, valueCount FROM typeDayBin
                    WHERE captureId = ? AND type = ? AND day = ?
                    """) : nil
        let write = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO typeDayBin (captureId, type, day, count, contentHash, valueSum, valueCount)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for spilled in bins {
            var bin = spilled.bin
            if let stored, let row = try Row.fetchOne(stored, arguments: [captureID, spilled.type, spilled.day]) {
                bin.count += row[0] as Int
                bin.hash &+= UInt64(row[1] as String, radix: 16) ?? 0
                bin.valueSum += row[2] as Double? ?? 0
                bin.valueCount += row[3] as Int
            }
            try write.execute(arguments: [
                captureID, spilled.type, spilled.day, bin.count, HexText.encode(bin.hash),
                bin.valueCount > 0 ? bin.valueSum : nil, bin.valueCount,
            ])
        }
    }
}

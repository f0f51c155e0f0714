import Foundation
internal import GRDB

/// The verification scan of a live check: every sample of a type read again, added up by UUID
/// (``storeDigested(_:of:progress:_:)``) and compared with what the archive holds
/// (``settleDigests(_:progress:_:cancellation:)``); a type that came up short is read again
/// (``rescanMarking(_:progress:reason:_:)``), noting each held record it meets, and what it did
/// not meet is gone (``markAbsent(types:_:cancellation:)``).
extension LiveCapture {
    /// Stores one page of a verification scan, like ``store(_:of:progress:_:)``: the samples the
    /// archive does not hold yet (new ones, and ones back after having gone); in a marking pass
    /// the ones it holds are noted as met (``noteMet(_:of:_:)``). What this check stored already —
    /// by its change read, or earlier in this pass — is not stored twice: that would take it for a
    /// second copy.
    package func storeScanned(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore)
        throws
    {
        try store.write { db in
            var unmatched = page.added
            if progress.scanMarking {
                unmatched = try noteMet(page.added, of: type, db)
            } else if progress.added > 0 {
                let texts = page.added.map(\.uuid.archiveText)
                let found = try uuids(among: texts, Self.seenByThisCapture, db)
                unmatched = zip(page.added, texts).filter { !found.contains($0.1) }.map(\.0)
            }
            try add(unmatched, db)
            progress.stored += page.added.count
            progress.deleted += try markDeleted(page.deleted, type: type, db)
            try progress.save(db, capture: captureID, type: type)
        }
    }

    /// One page of a scan that compares digests: the UUIDs it met are added up, nothing is
    /// stored but the deletions it met.
    package func storeDigested(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore)
        throws
    {
        var digest = UUIDDigest(count: 0, sum: progress.scanDigest)
        for sample in page.added { digest.add(sample.uuid.archiveText) }
        progress.scanDigest = digest.sum
        try store.write { db in
            progress.deleted += try markDeleted(page.deleted, type: type, db)
            try progress.save(db, capture: captureID, type: type)
        }
    }

    /// Compares what the finished digest scans of `types` met with what the archive holds live,
    /// read in one pass over the records. Where they agree, every record held was met and
    /// nothing is new: the type is verified without a write. Where they differ, the type is read
    /// again, marking.
    package func settleDigests(
        _ types: [String], progress: inout [String: LiveProgress], _ store: ArchiveStore,
        cancellation: CancellationFlag? = nil
    ) throws {
        guard !types.isEmpty else { return }
        let held = try store.read { db in try presentDigests(Set(types), db, cancellation: cancellation) }
        for type in types {
            guard var reached = progress[type] else { continue }
            let archived = held[type] ?? UUIDDigest()
            if archived == UUIDDigest(count: reached.scanSeen, sum: reached.scanDigest) {
                reached.scanMatched = reached.scanHeld ?? 0
                reached.stored = reached.scanSeen
                let verified = reached
                try store.write { db in try verified.save(db, capture: captureID, type: type) }
            } else {
                try rescanMarking(
                    type, progress: &reached,
                    reason:
                        "met \(reached.scanSeen) samples where the archive holds \(archived.count), not the same ones",
                    store)
            }
            progress[type] = reached
        }
    }

    /// The live records with a HealthKit UUID of each of `types`, added up.
    private func presentDigests(_ types: Set<String>, _ db: Database, cancellation: CancellationFlag?) throws
        -> [String: UUIDDigest]
    {
        var digests: [String: UUIDDigest] = [:]
        try forEachLiveRecord(of: types, db, cancellation: cancellation) { type, uuid, _ in
            digests[type, default: UUIDDigest()].add(bytes: uuid)
        }
        return digests
    }

    /// Each live record with a HealthKit UUID of one of `types` (with `unmarkedOnly`, those this
    /// capture has not stored or seen): one pass over the table in its own order — the UUID index
    /// would visit millions of rows in random order — checking `cancellation` as it goes. The
    /// UUID's bytes are valid only during the call.
    private func forEachLiveRecord(
        of types: Set<String>, unmarkedOnly: Bool = false, _ db: Database, cancellation: CancellationFlag?,
        _ body: (_ type: String, _ uuid: UnsafeBufferPointer<UInt8>, _ id: Int64) throws -> Void
    ) throws {
        let cursor = try SQLiteRowCursor(
            db,
            sql: """
                SELECT type, healthKitUUID, id FROM record
                WHERE +healthKitUUID IS NOT NULL AND goneCapture IS NULL\(
                    unmarkedOnly ? " AND \(RecordSightings.lastSeen) <> ?" : "")
                """, arguments: unmarkedOnly ? [captureID] : [])
        var lastType: (bytes: [UInt8], name: String?) = ([], nil)
        var rows = 0
        while try cursor.step() {
            rows += 1
            if rows % 65_536 == 0, cancellation?.isCancelled == true { throw CancellationError() }
            guard let type = cursor.bytes(0), let uuid = cursor.bytes(1), let id = cursor.integer(2) else { continue }
            if !type.elementsEqual(lastType.bytes) {
                let name = String(decoding: type, as: UTF8.self)
                lastType = (Array(type), types.contains(name) ? name : nil)
            }
            if let name = lastType.name { try body(name, uuid, id) }
        }
    }

    /// After a scan of `type` came up short: the type is read again from the beginning, noting
    /// each held record it meets (its earlier notes dropped); `reason` says how it came up short,
    /// for the audit trail.
    func rescanMarking(_ type: String, progress: inout LiveProgress, reason: String, _ store: ArchiveStore) throws {
        progress.scanAnchor = nil
        progress.scanDone = false
        progress.scanSeen = 0
        progress.scanMarking = true
        // The marking pass counts every sample it meets, those this check stored already included.
        progress.stored = 0
        let reset = progress
        try store.write { db in
            try reset.save(db, capture: captureID, type: type)
            try db.execute(
                sql: "DELETE FROM liveScanMet WHERE captureId = ? AND sampleType = ?", arguments: [captureID, type])
            try AuditLog.append(
                db, event: .scanRepeated, captureID: captureID,
                message:
                    "capture \(captureID): the scan of \(type) \(reason); reading it again to find which are missing")
        }
    }

    /// A marking pass's page: the samples the archive holds live (or this check stored already)
    /// are only noted as met — their UUIDs' hashes, in one row beside the page's position — and
    /// no record is written for them; ``markAbsent(types:_:cancellation:)`` compares the notes with
    /// the records when the check completes. Returns the samples left to store: those the
    /// archive does not hold, and those that had gone and came back.
    private func noteMet(_ samples: [HealthSample], of type: String, _ db: Database) throws -> [HealthSample] {
        let texts = samples.map(\.uuid.archiveText)
        let held = try uuids(among: texts, Self.liveOrSeenByThisCapture, db)
        var hashes: [UInt64] = []
        hashes.reserveCapacity(held.count)
        var left: [HealthSample] = []
        for (sample, text) in zip(samples, texts) {
            if held.contains(text) { hashes.append(UUIDDigest.hash(text)) } else { left.append(sample) }
        }
        if !hashes.isEmpty {
            try db.execute(
                sql: "INSERT INTO liveScanMet (captureId, sampleType, hashes) VALUES (?, ?, ?)",
                arguments: [captureID, type, hashes.withUnsafeBytes { Data($0) }])
        }
        return left
    }

    /// UUIDs probed a statement at a time (a page's worth in a few statements, each prepared once).
    static let probeSize = 256
    private static func probe(_ condition: String) -> String {
        "SELECT healthKitUUID FROM record WHERE healthKitUUID IN (\(databaseQuestionMarks(count: probeSize))) AND \(condition)"
    }
    private static let seenByThisCapture = probe("\(RecordSightings.lastSeen) = ?")
    private static let liveOrSeenByThisCapture = probe("(goneCapture IS NULL OR \(RecordSightings.lastSeen) = ?)")

    /// The UUIDs among `texts` of records a probe finds (its last parameter is this capture).
    private func uuids(among texts: [String], _ probe: String, _ db: Database) throws -> Set<String> {
        let statement = try db.cachedStatement(sql: probe)
        var found: Set<String> = []
        var start = 0
        while start < texts.count {
            let chunk = texts[start..<min(start + Self.probeSize, texts.count)]
            start += chunk.count
            var values = chunk.map(\.databaseValue)
            values += repeatElement(.null, count: Self.probeSize - chunk.count)
            found.formUnion(
                try String.fetchAll(statement, arguments: StatementArguments(values + [captureID.databaseValue])))
        }
        return found
    }

    /// Records the live records of each type held before this check, as a verification scan
    /// begins, for the types whose scan has not begun.
    package func recordHeld(_ types: [String], progress: inout [String: LiveProgress], _ store: ArchiveStore) throws {
        let waiting = types.filter { progress[$0]?.scanHeld == nil }
        guard !waiting.isEmpty else { return }
        let held = try heldCounts(store)
        let updated = waiting.map { type in
            var reached = progress[type] ?? LiveProgress()
            reached.scanHeld = held[type] ?? 0
            return (type, reached)
        }
        try store.write { db in
            for (type, reached) in updated { try reached.save(db, capture: captureID, type: type) }
        }
        for (type, reached) in updated { progress[type] = reached }
    }

    /// Live records of each type held before this capture, those it marked deleted aside: the
    /// previous live capture's counts less this one's deletions — or, with no previous live
    /// capture, counted from every record.
    func heldCounts(_ store: ArchiveStore) throws -> [String: Int] {
        try store.read { db in
            func counts(_ sql: String, _ arguments: StatementArguments) throws -> [String: Int] {
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: sql, arguments: arguments).map {
                        ($0[0] as String, $0[1] as Int)
                    })
            }
            var held =
                try previousCaptureID.map {
                    try counts("SELECT type, count FROM typeSnapshot WHERE captureId = ?", [$0])
                } ?? [:]
            if held.isEmpty {
                return try counts(
                    """
                    SELECT type, COUNT(*) FROM record
                    WHERE +healthKitUUID IS NOT NULL AND goneCapture IS NULL AND firstSeenCapture < ?
                    GROUP BY type
                    """, [captureID])
            }
            let deleted = try counts(
                """
                SELECT type, COUNT(*) FROM record
                WHERE goneCapture = ?1 AND firstSeenCapture < ?1 AND +healthKitUUID IS NOT NULL GROUP BY type
                """, [captureID])
            for (type, count) in deleted { held[type, default: 0] -= count }
            return held
        }
    }

    /// After the marking verification scans of `types`: their live records held before this check
    /// that the scans did not meet are gone without a trace (reason `absent`). One pass over the
    /// records in table order (the UUID index would visit millions of rows in random order)
    /// compares each with the scans' notes, sorted in memory: 8 bytes per sample met, a group of
    /// types at a time. A hash shared by a record that went and one met would hide that one loss:
    /// odds of about one in 2^64 per pair. Returns how many records were marked.
    func markAbsent(types: [String], _ db: Database, cancellation: CancellationFlag? = nil) throws -> Int {
        var marked = 0
        var group: [String: [UInt64]] = [:]
        var noted = 0
        for type in types {
            var hashes: [UInt64] = []
            let bytes =
                try Int.fetchOne(
                    db, sql: "SELECT SUM(length(hashes)) FROM liveScanMet WHERE captureId = ? AND sampleType = ?",
                    arguments: [captureID, type]) ?? 0
            hashes.reserveCapacity(bytes / 8)
            let rows = try Data.fetchCursor(
                db, sql: "SELECT hashes FROM liveScanMet WHERE captureId = ? AND sampleType = ?",
                arguments: [captureID, type])
            while let blob = try rows.next() {
                blob.withUnsafeBytes { bytes in
                    for offset in stride(from: 0, to: bytes.count - 7, by: 8) {
                        hashes.append(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    }
                }
            }
            hashes.sort()
            noted += hashes.count
            group[type] = hashes
            if noted >= Self.notesPerPass {
                marked += try markUnmet(group, db, cancellation: cancellation)
                group = [:]
                noted = 0
            }
        }
        if !group.isEmpty { marked += try markUnmet(group, db, cancellation: cancellation) }
        try db.execute(sql: "DELETE FROM liveScanMet WHERE captureId = ?", arguments: [captureID])
        return marked
    }

    /// Samples met that one pass over the records compares at most (16 MB of notes).
    static let notesPerPass = 2_000_000

    private func markUnmet(_ met: [String: [UInt64]], _ db: Database, cancellation: CancellationFlag?) throws -> Int {
        var unmet: [Int64] = []
        try forEachLiveRecord(of: Set(met.keys), unmarkedOnly: true, db, cancellation: cancellation) { type, uuid, id in
            if met[type]?.sortedIndex(of: UUIDDigest.hash(uuid)) == nil { unmet.append(id) }
        }
        let mark = try db.cachedStatement(
            sql: "UPDATE record SET goneCapture = ?, goneReason = \(GoneReason.absent.sqlLiteral) WHERE id = ?")
        for id in unmet { try mark.execute(arguments: [captureID, id]) }
        return unmet.count
    }
}

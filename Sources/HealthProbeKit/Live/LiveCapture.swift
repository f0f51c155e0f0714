import Foundation
import GRDB

/// One check of the live path, stored as a capture of origin `healthkit`: `delta` when it holds
/// what changed since the saved anchors, `full` when a verification scan re-read every monitored
/// type. Unlike an import, it is written over several transactions — a page at a time, each with
/// the position that follows it (``LiveProgress``), so memory stays flat however much HealthKit
/// returns and a check cut off keeps what it read. It stays `running`, across as many background
/// windows as it needs, until ``complete`` saves the anchors; ``abandon`` removes it when the
/// check fails.
struct LiveCapture: Sendable {
    static let origin = "healthkit"

    let captureID: Int64
    let previousCaptureID: Int64?
    let recordIDFloor: Int64
    let isFull: Bool
    /// When the data was read (the clock of the check): the capture's date.
    let asOf: Double

    static func begin(_ store: ArchiveStore, full: Bool, asOf: Double) throws -> LiveCapture {
        try store.writer.write { db in
            let previous = try Int64.fetchOne(
                db, sql: "SELECT MAX(id) FROM capture WHERE status = 'complete' AND origin = ?", arguments: [origin])
            let floor = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") ?? 0
            try db.execute(
                sql: """
                    INSERT INTO capture (origin, scope, status, inputName, exportDate, startedAt, previousCaptureId)
                    VALUES (?, ?, 'running', 'HealthKit', ?, ?, ?)
                    """, arguments: [origin, full ? "full" : "delta", asOf, Date().timeIntervalSince1970, previous])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: "INSERT INTO liveCheck (captureId, recordIdFloor) VALUES (?, ?)", arguments: [id, floor])
            try AuditLog.append(
                db, event: .captureStarted, captureID: id,
                message: "capture \(id) started: \(full ? "verification scan" : "changes since the last check")")
            return LiveCapture(
                captureID: id, previousCaptureID: previous, recordIDFloor: floor, isFull: full, asOf: asOf)
        }
    }

    /// The check an earlier window cut off, if any, taken up again: it keeps every page it
    /// stored, and its date becomes this window's.
    static func resume(_ store: ArchiveStore, asOf: Double) throws -> LiveCapture? {
        try store.writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT capture.id, capture.scope, capture.previousCaptureId, liveCheck.recordIdFloor,
                            liveCheck.windows
                        FROM capture JOIN liveCheck ON liveCheck.captureId = capture.id
                        WHERE capture.status = 'running' AND capture.origin = ?
                        ORDER BY capture.id DESC LIMIT 1
                        """, arguments: [origin])
            else { return nil }
            let id: Int64 = row["id"]
            let window = (row["windows"] as Int) + 1
            try db.execute(sql: "UPDATE liveCheck SET windows = ? WHERE captureId = ?", arguments: [window, id])
            try db.execute(sql: "UPDATE capture SET exportDate = ? WHERE id = ?", arguments: [asOf, id])
            let stored = try LiveProgress.load(db, capture: id).stored
            try AuditLog.append(
                db, event: .checkResumed, captureID: id,
                message:
                    "capture \(id) resumed (window \(window)): it keeps the \(stored) records stored before it was cut off"
            )
            return LiveCapture(
                captureID: id, previousCaptureID: row["previousCaptureId"], recordIDFloor: row["recordIdFloor"],
                isFull: row["scope"] == "full", asOf: asOf)
        }
    }

    /// Records that this check was cut off: what it stored stays, and the next check resumes it.
    func recordCutOff(_ store: ArchiveStore, reason: String) throws {
        try store.writer.write { db in
            let stored = try LiveProgress.load(db, capture: captureID).stored
            try AuditLog.append(
                db, event: .checkCutOff, captureID: captureID,
                message:
                    "capture \(captureID) cut off (\(reason)) with \(stored) records stored; the next check resumes it")
        }
    }

    /// How far this check has read each type.
    func progress(_ store: ArchiveStore) throws -> [String: LiveProgress] {
        try store.writer.read { db in try LiveProgress.load(db, capture: captureID) }
    }

    /// The same capture made a verification scan (a check that read nothing verifies).
    func upgradedToFull(_ store: ArchiveStore) throws -> LiveCapture {
        try store.writer.write { db in
            try db.execute(sql: "UPDATE capture SET scope = 'full' WHERE id = ?", arguments: [captureID])
        }
        return LiveCapture(
            captureID: captureID, previousCaptureID: previousCaptureID, recordIDFloor: recordIDFloor, isFull: true,
            asOf: asOf)
    }

    /// Stores one page of a type's changes in one transaction with the position that follows
    /// it (`progress`, already moved past the page): the samples, the deletions (marked gone with
    /// reason `deleted`, one audit entry), and the progress, counting what it stored.
    func store(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore) throws {
        try store.writer.write { db in
            try add(page.added, db)
            progress.stored += page.added.count
            progress.deleted += try markDeleted(page.deleted, type: type, db)
            try progress.save(db, capture: captureID, type: type)
        }
    }

    /// Stores one page of a verification scan, like ``store(_:of:progress:_:)``:
    /// the samples the archive does not hold yet (new ones, ones back after having gone, and, in a
    /// marking pass, every record held, which is thereby marked seen). What this check stored
    /// already — by its change read, or earlier in this pass — is not stored twice: that would take
    /// it for a second copy.
    func storeScanned(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore) throws {
        try store.writer.write { db in
            var unmatched = page.added
            if progress.scanMarking || progress.added > 0 {
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
    func storeDigested(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore) throws
    {
        var digest = UUIDDigest(count: 0, sum: progress.scanDigest)
        for sample in page.added { digest.add(sample.uuid.archiveText) }
        progress.scanDigest = digest.sum
        try store.writer.write { db in
            progress.deleted += try markDeleted(page.deleted, type: type, db)
            try progress.save(db, capture: captureID, type: type)
        }
    }

    /// Compares what the finished digest scans of `types` met with what the archive holds live,
    /// read in one pass over the records. Where they agree, every record held was met and
    /// nothing is new: the type is verified without a write. Where they differ, the type is read
    /// again, marking.
    func settleDigests(_ types: [String], progress: inout [String: LiveProgress], _ store: ArchiveStore) throws {
        guard !types.isEmpty else { return }
        let held = try store.writer.read { db in try presentDigests(Set(types), db) }
        for type in types {
            guard var reached = progress[type] else { continue }
            let archived = held[type] ?? UUIDDigest()
            if archived == UUIDDigest(count: reached.scanSeen, sum: reached.scanDigest) {
                reached.scanMatched = reached.scanHeld ?? 0
                reached.stored = reached.scanSeen
                let verified = reached
                try store.writer.write { db in try verified.save(db, capture: captureID, type: type) }
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

    /// The live records with a HealthKit UUID of each of `types`, added up: one pass over the
    /// table in its own order (the UUID index would read the records in random order).
    private func presentDigests(_ types: Set<String>, _ db: Database) throws -> [String: UUIDDigest] {
        let cursor = try SQLiteRowCursor(
            db, sql: "SELECT type, healthKitUUID FROM record WHERE +healthKitUUID IS NOT NULL AND goneCapture IS NULL")
        var digests: [String: UUIDDigest] = [:]
        var lastType: (bytes: [UInt8], name: String?) = ([], nil)
        while try cursor.step() {
            guard let type = cursor.bytes(0), let uuid = cursor.bytes(1) else { continue }
            if !type.elementsEqual(lastType.bytes) {
                let name = String(decoding: type, as: UTF8.self)
                lastType = (Array(type), types.contains(name) ? name : nil)
            }
            if let name = lastType.name { digests[name, default: UUIDDigest()].add(bytes: uuid) }
        }
        return digests
    }

    /// After a scan of `type` came up short: the type is read again from the beginning, marking
    /// each record it meets; `reason` says how it came up short, for the audit trail.
    func rescanMarking(_ type: String, progress: inout LiveProgress, reason: String, _ store: ArchiveStore) throws {
        progress.scanAnchor = nil
        progress.scanDone = false
        progress.scanSeen = 0
        progress.scanMarking = true
        // The marking pass counts every sample it meets, those this check stored already included.
        progress.stored = 0
        let reset = progress
        try store.writer.write { db in
            try reset.save(db, capture: captureID, type: type)
            try AuditLog.append(
                db, event: .scanRepeated, captureID: captureID,
                message:
                    "capture \(captureID): the scan of \(type) \(reason); reading it again to find which are missing")
        }
    }

    private func add(_ samples: [HealthSample], _ db: Database) throws {
        guard !samples.isEmpty else { return }
        let ingest = try ingest(db)
        var builder = PreparedBatch.Builder(rowsPerBatch: samples.count)
        for sample in samples { builder.append(HealthRecord(sample: sample)) }
        try ingest.add(builder.take())
    }

    /// UUIDs probed a statement at a time (a page's worth in a few statements, each prepared once).
    static let probeSize = 256
    private static func probe(_ condition: String) -> String {
        "SELECT healthKitUUID FROM record WHERE healthKitUUID IN (\(databaseQuestionMarks(count: probeSize))) AND \(condition)"
    }
    private static let seenByThisCapture = probe("lastSeenCapture = ?")

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
    func recordHeld(_ types: [String], progress: inout [String: LiveProgress], _ store: ArchiveStore) throws {
        let waiting = types.filter { progress[$0]?.scanHeld == nil }
        guard !waiting.isEmpty else { return }
        let held = try heldCounts(store)
        let updated = waiting.map { type in
            var reached = progress[type] ?? LiveProgress()
            reached.scanHeld = held[type] ?? 0
            return (type, reached)
        }
        try store.writer.write { db in
            for (type, reached) in updated { try reached.save(db, capture: captureID, type: type) }
        }
        for (type, reached) in updated { progress[type] = reached }
    }

    /// Marks what HealthKit reported deleted as gone with reason `deleted`, with one audit entry
    /// per type and page; returns how many records it marked.
    private func markDeleted(_ deleted: [DeletedSample], type: String, _ db: Database) throws -> Int {
        guard !deleted.isEmpty else { return 0 }
        // A record this check saw come back and that was deleted before the check ended is gone
        // as it was: its return is taken back.
        let returnTakenBack = try db.cachedStatement(
            sql: """
                UPDATE record SET lastSeenCapture = previousSeenCapture, previousSeenCapture = NULL
                WHERE healthKitUUID = ?2 AND goneCapture IS NOT NULL AND goneCapture <> ?1 AND lastSeenCapture = ?1
                """)
        let statement = try db.cachedStatement(
            sql: """
                UPDATE record SET goneCapture = ?1, goneReason = 'deleted'
                WHERE healthKitUUID = ?2 AND goneCapture IS NULL
                """)
        var marked = 0
        for object in deleted {
            let arguments: StatementArguments = [captureID, object.uuid.archiveText]
            try returnTakenBack.execute(arguments: arguments)
            try statement.execute(arguments: arguments)
            marked += db.changesCount
        }
        if marked > 0 {
            try AuditLog.append(
                db, event: .recordsDeleted, captureID: captureID,
                message: "capture \(captureID): \(marked) \(type) records deleted in Health (deleted objects)")
        }
        return marked
    }

    /// Live records of each type held before this capture, those it marked deleted aside: the
    /// previous live capture's counts less this one's deletions — or, with no previous live
    /// capture, counted from every record.
    func heldCounts(_ store: ArchiveStore) throws -> [String: Int] {
        try store.writer.read { db in
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

    /// After the marking verification scans of `types`: their live records the scans did not
    /// meet are gone without a trace (reason `absent`). Returns how many.
    private func markAbsent(types: [String], _ db: Database) throws -> Int {
        guard !types.isEmpty else { return 0 }
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = ?, goneReason = 'absent'
                WHERE healthKitUUID IS NOT NULL AND goneCapture IS NULL AND lastSeenCapture <> ?
                    AND type IN (\(databaseQuestionMarks(count: types.count)))
                """, arguments: StatementArguments([captureID, captureID] + types))
        return db.changesCount
    }

    private func ingest(_ db: Database) throws -> CaptureIngest {
        try CaptureIngest(
            db: db, captureID: captureID, previousCaptureID: previousCaptureID, verifiedAt: asOf,
            recordIDFloor: recordIDFloor)
    }

    /// Completes the capture in one transaction: what the finished marking verification scans
    /// of `verifiedTypes` did not meet marked gone, correlation links, counts, per-type totals of
    /// what is present now, the anchors, and the audit.
    func complete(
        _ store: ArchiveStore, records: Int, anchors: [String: HealthAnchor], verifiedTypes: [String],
        thresholds: Thresholds, cancellation: CancellationFlag? = nil
    ) throws -> (CaptureSummary, CaptureAudit.Report) {
        try store.writer.write { db in
            _ = try markAbsent(types: verifiedTypes, db)
            let ingest = try ingest(db)
            try ingest.linkCorrelations()
            let new = try ingest.countNew()
            let gone =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture = ?", arguments: [captureID])
                ?? 0
            try ingest.writeAggregates(
                try incrementalAggregates(db, cancellation: cancellation)
                    ?? presentAggregates(db, cancellation: cancellation))
            let saveAnchor = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO anchor (origin, sampleType, value, captureId) VALUES (?, ?, ?, ?)")
            for (type, anchor) in anchors {
                try saveAnchor.execute(arguments: [Self.origin, type, anchor.data, captureID])
            }
            try db.execute(
                sql: """
                    UPDATE capture SET status = 'complete', completedAt = ?, records = ?, new = ?, gone = ?,
                        unchanged = ?, elementCounts = '{}'
                    WHERE id = ?
                    """,
                arguments: [Date().timeIntervalSince1970, records, new, gone, max(0, records - new), captureID])
            try AuditLog.append(
                db, event: .captureCompleted, captureID: captureID,
                message: "capture \(captureID) complete: \(records) records read, \(new) new, \(gone) gone")
            let audit = try CaptureAudit.run(
                db, captureID: captureID, recordIDFloor: recordIDFloor, thresholds: thresholds)
            try ingest.clearReturned()
            guard
                let summary = try CaptureSummary.fetchOne(
                    db, sql: "SELECT * FROM capture WHERE id = ?", arguments: [captureID])
            else { throw ArchiveError.storage(problem: "the capture vanished while it was written") }
            return (summary, audit)
        }
    }

    /// Removes the capture and everything it changed (a deferred or failed check).
    func abandon(_ store: ArchiveStore, reason: String) throws {
        try store.writer.write { db in
            try ArchiveStore.undoCapture(captureID, db)
            try AuditLog.append(
                db, event: .captureAbandoned, captureID: captureID, message: "capture \(captureID) abandoned: \(reason)"
            )
        }
    }
}

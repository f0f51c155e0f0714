import Foundation
internal import GRDB

/// One check of the live path, stored as a capture of origin `healthkit`: `delta` when it holds
/// what changed since the saved anchors, `full` when a verification scan re-read every monitored
/// type. Unlike an import, it is written over several transactions — a page at a time, each with
/// the position that follows it (``LiveProgress``), so memory stays flat however much HealthKit
/// returns and a check cut off keeps what it read. It stays `running`, across as many background
/// windows as it needs, until ``complete`` saves the anchors; ``abandon`` removes it when the
/// check fails.
package struct LiveCapture: Sendable {
    static let origin = CaptureOrigin.healthkit

    let captureID: Int64
    let previousCaptureID: Int64?
    let recordIDFloor: Int64
    package let isFull: Bool
    /// When the data was read (the clock of the check): the capture's date.
    let asOf: Double

    package static func begin(_ store: ArchiveStore, full: Bool, asOf: Double) throws -> LiveCapture {
        try store.write { db in
            let previous = try LatestCapture.id(db, origins: [origin])
            let floor = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") ?? 0
            let id = try CaptureStart(
                origin: origin, scope: full ? .full : .delta, inputName: "HealthKit", exportDate: asOf,
                previous: previous,
                auditDetail: ": \(full ? "verification scan" : "changes since the last check")"
            ).insert(db)
            try db.execute(
                sql: "INSERT INTO liveCheck (captureId, recordIdFloor) VALUES (?, ?)", arguments: [id, floor])
            return LiveCapture(
                captureID: id, previousCaptureID: previous, recordIDFloor: floor, isFull: full, asOf: asOf)
        }
    }

    /// The check an earlier window cut off, if any, taken up again: it keeps every page it
    /// stored, and its date becomes this window's.
    package static func resume(_ store: ArchiveStore, asOf: Double) throws -> LiveCapture? {
        try store.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT capture.id, capture.scope, capture.previousCaptureId, liveCheck.recordIdFloor,
                            liveCheck.windows
                        FROM capture JOIN liveCheck ON liveCheck.captureId = capture.id
                        WHERE capture.status = \(CaptureStatus.running.sqlLiteral) AND capture.origin = ?
                        ORDER BY capture.id DESC LIMIT 1
                        """, arguments: [origin.rawValue])
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
                isFull: (row["scope"] as String?) == CaptureScope.full.rawValue, asOf: asOf)
        }
    }

    /// Records that this check was cut off: what it stored stays, and the next check resumes it.
    package func recordCutOff(_ store: ArchiveStore, reason: String) throws {
        try store.write { db in
            let stored = try LiveProgress.load(db, capture: captureID).stored
            try AuditLog.append(
                db, event: .checkCutOff, captureID: captureID,
                message:
                    "capture \(captureID) cut off (\(reason)) with \(stored) records stored; the next check resumes it")
        }
    }

    /// How far this check has read each type.
    package func progress(_ store: ArchiveStore) throws -> [String: LiveProgress] {
        try store.read { db in try LiveProgress.load(db, capture: captureID) }
    }

    /// The same capture made a verification scan (a check that read nothing verifies).
    package func upgradedToFull(_ store: ArchiveStore) throws -> LiveCapture {
        try store.write { db in
            try db.execute(
                sql: "UPDATE capture SET scope = \(CaptureScope.full.sqlLiteral) WHERE id = ?", arguments: [captureID])
        }
        return LiveCapture(
            captureID: captureID, previousCaptureID: previousCaptureID, recordIDFloor: recordIDFloor, isFull: true,
            asOf: asOf)
    }

    /// Stores one page of a type's changes in one transaction with the position that follows
    /// it (`progress`, already moved past the page): the samples, the deletions (marked gone with
    /// reason `deleted`, one audit entry), and the progress, counting what it stored.
    package func store(_ page: ChangePage, of type: String, progress: inout LiveProgress, _ store: ArchiveStore) throws
    {
        try store.write { db in
            try add(page.added, db)
            progress.stored += page.added.count
            progress.deleted += try markDeleted(page.deleted, type: type, db)
            try progress.save(db, capture: captureID, type: type)
        }
    }

    /// Marks what HealthKit reported deleted as gone with reason `deleted`, with one audit entry
    /// per type and page; returns how many records it marked.
    func markDeleted(_ deleted: [DeletedSample], type: String, _ db: Database) throws -> Int {
        guard !deleted.isEmpty else { return 0 }
        // A record this check saw come back and that was deleted before the check ended is gone
        // as it was: its return is taken back.
        let returnTakenBack = try db.cachedStatement(
            sql: """
                UPDATE recordSighting SET lastSeenCapture = previousSeenCapture, previousSeenCapture = NULL
                WHERE lastSeenCapture = ?1 AND recordId IN (
                    SELECT id FROM record WHERE healthKitUUID = ?2 AND goneCapture IS NOT NULL AND goneCapture <> ?1)
                """)
        let statement = try db.cachedStatement(
            sql: """
                UPDATE record SET goneCapture = ?1, goneReason = \(GoneReason.deleted.sqlLiteral)
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

    /// Stores samples as records of this capture (records held already are marked seen).
    func add(_ samples: [HealthSample], _ db: Database) throws {
        guard !samples.isEmpty else { return }
        let writing = try writing(db)
        var builder = PreparedBatch.Builder(rowsPerBatch: samples.count)
        for sample in samples { builder.append(HealthRecord(sample: sample)) }
        try writing.add(builder.take())
    }

    func writing(_ db: Database) throws -> CaptureWrite {
        try CaptureWrite(
            db: db, captureID: captureID, previousCaptureID: previousCaptureID, recordIDFloor: recordIDFloor)
    }

    /// Completes the capture in one transaction: what the finished marking verification scans
    /// of `verifiedTypes` did not meet marked gone, correlation links, counts, per-type totals of
    /// what is present now, the anchors, and the audit. A cancellation (the flag, or a statement
    /// interrupted: see `HealthMonitor.interruptible`) rolls it all back; the next window completes.
    package func complete(
        _ store: ArchiveStore, records: Int, anchors: [String: HealthAnchor], verifiedTypes: [String],
        thresholds: Thresholds, cancellation: CancellationFlag? = nil
    ) throws -> (CaptureSummary, CaptureAudit.Report) {
        func checkCancellation() throws {
            if cancellation?.isCancelled == true { throw CancellationError() }
        }
        return try store.write { db in
            _ = try markAbsent(types: verifiedTypes, db, cancellation: cancellation)
            try checkCancellation()
            let writing = try writing(db)
            try writing.linkCorrelations()
            let new = try writing.countNew()
            let gone =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture = ?", arguments: [captureID])
                ?? 0
            try checkCancellation()
            try writing.writeAggregates(
                try incrementalAggregates(db, cancellation: cancellation)
                    ?? presentAggregates(db, cancellation: cancellation))
            let saveAnchor = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO anchor (origin, sampleType, value, captureId) VALUES (?, ?, ?, ?)")
            for (type, anchor) in anchors {
                try saveAnchor.execute(arguments: [Self.origin.rawValue, type, anchor.data, captureID])
            }
            return try writing.complete(
                CaptureCompletion(
                    records: records, new: new, gone: gone, auditSuffix: ", read from HealthKit"),
                thresholds: thresholds, checkpoint: checkCancellation)
        }
    }

    /// Removes the capture and everything it changed (a deferred or failed check).
    package func abandon(_ store: ArchiveStore, reason: String) throws {
        try store.write { db in
            try ArchiveStore.undoCapture(captureID, db)
            try AuditLog.append(
                db, event: .captureAbandoned, captureID: captureID, message: "capture \(captureID) abandoned: \(reason)"
            )
        }
    }
}

import Foundation
import GRDB

/// One check of the live path, stored as a capture of origin `healthkit`: `delta` when it holds
/// what changed since the saved anchors, `full` when a verification scan re-read every monitored
/// type. Unlike an import, it is written over several transactions (a page at a time, so memory
/// stays flat however much HealthKit returns); it stays `running` until ``complete`` — which also
/// saves the anchors — and ``abandon`` (or the next open of the archive) removes it otherwise.
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
            try AuditLog.append(
                db, event: .captureStarted, captureID: id,
                message: "capture \(id) started: \(full ? "verification scan" : "changes since the last check")")
            return LiveCapture(
                captureID: id, previousCaptureID: previous, recordIDFloor: floor, isFull: full, asOf: asOf)
        }
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

    /// Stores samples read from HealthKit (new ones inserted, known ones marked seen again).
    func add(_ samples: [HealthSample], _ store: ArchiveStore) throws {
        guard !samples.isEmpty else { return }
        try store.writer.write { db in
            let ingest = try ingest(db)
            var builder = PreparedBatch.Builder(rowsPerBatch: samples.count)
            for sample in samples { builder.append(HealthRecord(sample: sample)) }
            try ingest.add(builder.take())
        }
    }

    /// Marks what HealthKit reported deleted as gone with reason `deleted`, with one audit entry
    /// per type; returns how many records each type lost.
    @discardableResult
    func markDeleted(_ deleted: [DeletedSample], type: String, _ store: ArchiveStore) throws -> Int {
        guard !deleted.isEmpty else { return 0 }
        return try store.writer.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE record SET goneCapture = ?, goneReason = 'deleted'
                    WHERE healthKitUUID = ? AND goneCapture IS NULL
                    """)
            var marked = 0
            for object in deleted {
                try statement.execute(arguments: [captureID, object.uuid.uuidString])
                marked += db.changesCount
            }
            if marked > 0 {
                try AuditLog.append(
                    db, event: .recordsDeleted, captureID: captureID,
                    message: "capture \(captureID): \(marked) \(type) records deleted in Health (deleted objects)")
            }
            return marked
        }
    }

    /// Live records of `type` present before this capture.
    func presentCount(of type: String, _ store: ArchiveStore) throws -> Int {
        try store.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM record
                    WHERE healthKitUUID IS NOT NULL AND type = ? AND goneCapture IS NULL AND firstSeenCapture < ?
                    """, arguments: [type, captureID]) ?? 0
        }
    }

    /// After a verification scan of `type`: live records of the type it did not see are gone,
    /// without a trace (reason `absent`). Returns how many.
    func markAbsent(type: String, _ store: ArchiveStore) throws -> Int {
        try store.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE record SET goneCapture = :capture, goneReason = 'absent'
                    WHERE healthKitUUID IS NOT NULL AND type = :type AND goneCapture IS NULL
                        AND lastSeenCapture <> :capture
                    """, arguments: ["capture": captureID, "type": type])
            return db.changesCount
        }
    }

    private func ingest(_ db: Database) throws -> CaptureIngest {
        try CaptureIngest(
            db: db, captureID: captureID, previousCaptureID: previousCaptureID, verifiedAt: asOf,
            recordIDFloor: recordIDFloor)
    }

    /// Completes the capture in one transaction: correlation links, counts, per-type totals of
    /// what is present now, the anchors, and the audit.
    func complete(
        _ store: ArchiveStore, records: Int, anchors: [String: HealthAnchor], thresholds: Thresholds
    ) throws -> (CaptureSummary, CaptureAudit.Report) {
        try store.writer.write { db in
            let ingest = try ingest(db)
            try ingest.linkCorrelations()
            let new = try ingest.countNew()
            let gone =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture = ?", arguments: [captureID])
                ?? 0
            try ingest.writeAggregates(try incrementalAggregates(db) ?? presentAggregates(db))
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

    /// Per-type totals of the live records present after this capture — what it holds — read
    /// from every live record: for the first live capture, and to check the incremental ones.
    func presentAggregates(_ db: Database) throws -> CaptureAggregates {
        var aggregates = CaptureAggregates()
        try Self.forEachRecord(
            db,
            where: "healthKitUUID IS NOT NULL AND (goneCapture IS NULL OR lastSeenCapture = ?) ORDER BY type",
            captureID
        ) { aggregates.add($0, strict: $1) }
        return aggregates
    }

    /// The previous live capture's totals, plus the records that arrived in this one (new, or
    /// back after having gone), minus those that went: the same totals as
    /// ``presentAggregates(_:)``, reading only what changed. Nil for the first live capture.
    private func incrementalAggregates(_ db: Database) throws -> CaptureAggregates? {
        guard let previousCaptureID, var aggregates = try CaptureAggregates.stored(db, capture: previousCaptureID)
        else { return nil }
        try Self.forEachRecord(
            db,
            where: """
                healthKitUUID IS NOT NULL AND ((id > ?2 AND firstSeenCapture = ?1)
                    OR (goneCapture IS NOT NULL AND goneCapture <> ?1 AND lastSeenCapture = ?1))
                """, captureID, recordIDFloor
        ) { aggregates.add($0, strict: $1) }
        try Self.forEachRecord(
            db, where: "goneCapture = ?1 AND lastSeenCapture <> ?1 AND healthKitUUID IS NOT NULL", captureID
        ) { aggregates.remove($0, strict: $1) }
        return aggregates.withoutEmptyTypes
    }

    /// Each live record matching `condition`, as the totals read it.
    private static func forEachRecord(
        _ db: Database, where condition: String, _ capture: Int64, _ floor: Int64? = nil,
        _ body: (HealthRecord, Fingerprint) -> Void
    ) throws {
        let arguments: StatementArguments = floor.map { [capture, $0] } ?? [capture]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT kind, type, sourceName, value, startDate, strictFingerprint FROM record WHERE \(condition)",
            arguments: arguments)
        while let row = try rows.next() {
            let record = HealthRecord(
                kind: HealthRecord.Kind(rawValue: row["kind"]) ?? .other, type: row["type"],
                sourceName: row["sourceName"], value: row["value"], startDate: row["startDate"])
            let strict = Fingerprint(bytes: [UInt8](row["strictFingerprint"] as Data)) ?? Fingerprint(high: 0, low: 0)
            body(record, strict)
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

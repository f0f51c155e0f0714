import Foundation
import GRDB

extension LiveCapture {
    /// Per-type totals of the live records present after this capture — what it holds: live
    /// records, and those it saw come back, but none it marked gone (a record it read and then
    /// saw deleted in a later page or window is not held) — read from every live record: for
    /// the first live capture, and to check the incremental ones.
    func presentAggregates(_ db: Database, cancellation: CancellationFlag? = nil) throws -> CaptureAggregates {
        var aggregates = CaptureAggregates()
        try Self.forEachRecord(
            db, cancellation,
            // In the table's order, read straight through: sorting five million records by type
            // first took SQLite 20 s before the first row, where no cancellation can reach it, and
            // the UUID index would read them in random order.
            where: """
                +healthKitUUID IS NOT NULL AND (goneCapture IS NULL OR (lastSeenCapture = ?1 AND goneCapture <> ?1))
                """,
            captureID
        ) { aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        return aggregates
    }

    /// The previous live capture's totals, plus the records that arrived in this one (new and
    /// still there, or back after having gone), minus those it held that went: the same totals as
    /// ``presentAggregates(_:)``, reading only what changed. Nil for the first live capture.
    func incrementalAggregates(_ db: Database, cancellation: CancellationFlag? = nil) throws -> CaptureAggregates? {
        guard let previousCaptureID, var aggregates = try CaptureAggregates.stored(db, capture: previousCaptureID)
        else { return nil }
        // Each condition on its own, so that each reads through its index (the new records by
        // id, the returned ones by their gone mark) and not every live record.
        try Self.forEachRecord(
            db, cancellation,
            where: "id > ?2 AND firstSeenCapture = ?1 AND goneCapture IS NULL AND +healthKitUUID IS NOT NULL",
            captureID, recordIDFloor
        ) { aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        try Self.forEachRecord(
            db, cancellation,
            where: """
                goneCapture IS NOT NULL AND goneCapture <> ?1 AND lastSeenCapture = ?1 AND +healthKitUUID IS NOT NULL
                """, captureID
        ) { aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        try Self.forEachRecord(
            db, cancellation, where: "goneCapture = ?1 AND firstSeenCapture < ?1 AND +healthKitUUID IS NOT NULL",
            captureID
        ) { aggregates.remove(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        return aggregates.withoutEmptyTypes
    }

    /// Each live record matching `condition`, as the totals read it: its type, source, numbers
    /// (the stored parsed value) and strict fingerprint, read column by column — a first sync's
    /// completion reads millions. A cancelled check stops within a few thousand records (the
    /// completion's transaction then rolls back, and the next window completes the check).
    private static func forEachRecord(
        _ db: Database, _ cancellation: CancellationFlag?, where condition: String, _ capture: Int64,
        _ floor: Int64? = nil,
        _ body: (String, String?, PreparedBatch.Numbers, Fingerprint) -> Void
    ) throws {
        let arguments: StatementArguments = floor.map { [capture, $0] } ?? [capture]
        let rows = try SQLiteRowCursor(
            db,
            sql: "SELECT type, sourceName, numericValue, startDate, strictFingerprint FROM record WHERE \(condition)",
            arguments: arguments)
        var read = 0
        var type: (bytes: [UInt8], name: String) = ([], "")
        var source: (bytes: [UInt8]?, name: String?) = (nil, nil)
        while try rows.step() {
            read += 1
            if read % 4_096 == 0, cancellation?.isCancelled == true { throw CancellationError() }
            guard let typeBytes = rows.bytes(0) else { continue }
            if !typeBytes.elementsEqual(type.bytes) {
                type = (Array(typeBytes), String(decoding: typeBytes, as: UTF8.self))
            }
            let sourceBytes = rows.bytes(1)
            let sameSource =
                switch (sourceBytes, source.bytes) {
                case (nil, nil): true
                case (let now?, let last?): now.elementsEqual(last)
                default: false
                }
            if !sameSource {
                source = (sourceBytes.map(Array.init), sourceBytes.map { String(decoding: $0, as: UTF8.self) })
            }
            let numbers = PreparedBatch.Numbers(numericValue: rows.double(2), startDate: rows.double(3))
            body(type.name, source.name, numbers, Fingerprint(bytes: rows.bytes(4)) ?? Fingerprint(high: 0, low: 0))
        }
    }
}

import Foundation
internal import GRDB

extension LiveCapture {
    /// Per-type totals of the live records present after this capture — what it holds: live
    /// records, and those it saw come back, but none it marked gone (a record it read and then
    /// saw deleted in a later page or window is not held) — read from every live record: for
    /// the first live capture, and to check the incremental ones.
    func presentAggregates(_ db: Database, cancellation: CancellationFlag? = nil) throws -> CaptureAggregates {
        var aggregates = CaptureAggregates()
        try CaptureAggregates.forEachRecord(
            db, cancellation,
            // In the table's order, read straight through: sorting five million records by type
            // first took SQLite 20 s before the first row, where no cancellation can reach it, and
            // the UUID index would read them in random order.
            where: """
                +healthKitUUID IS NOT NULL
                    AND (goneCapture IS NULL OR (sighting.lastSeenCapture = ?1 AND goneCapture <> ?1))
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
        try CaptureAggregates.forEachRecord(
            db, cancellation,
            where: "id > ?2 AND firstSeenCapture = ?1 AND goneCapture IS NULL AND +healthKitUUID IS NOT NULL",
            captureID, recordIDFloor
        ) { aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        try CaptureAggregates.forEachRecord(
            db, cancellation,
            where: """
                goneCapture IS NOT NULL AND goneCapture <> ?1 AND sighting.lastSeenCapture = ?1
                    AND +healthKitUUID IS NOT NULL
                """, captureID
        ) { aggregates.add(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        try CaptureAggregates.forEachRecord(
            db, cancellation, where: "goneCapture = ?1 AND firstSeenCapture < ?1 AND +healthKitUUID IS NOT NULL",
            captureID
        ) { aggregates.remove(type: $0, sourceName: $1, numbers: $2, strict: $3) }
        return aggregates.withoutEmptyTypes
    }
}

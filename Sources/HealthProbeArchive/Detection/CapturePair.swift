import Foundation
internal import GRDB

/// A completed capture C and the previous complete full capture P it is compared with.
struct CapturePair: Sendable {
    struct Capture: Sendable, FetchableRecord {
        var id: Int64
        var origin: CaptureOrigin
        var scope: CaptureScope
        var exportDate: Double?
        var startedAt: Double

        init(row: Row) throws {
            id = row["id"]
            origin = try row["origin"]
            scope = try row["scope"]
            exportDate = row["exportDate"]
            startedAt = row["startedAt"]
        }

        /// When the data was taken: the export's date, else when the capture began.
        var date: Double { exportDate ?? startedAt }
    }

    var current: Capture
    var previous: Capture?
    /// The largest record id before C: C's never-seen records are the rows above it.
    var recordIDFloor: Int64
    /// The zone whose local days evidence names (`settings --time-zone`, else this computer's):
    /// the days every face shows.
    var dayZone = TimeZone.current

    static func load(_ db: Database, captureID: Int64, recordIDFloor: Int64) throws -> CapturePair {
        let sql = "SELECT id, origin, scope, exportDate, startedAt FROM capture WHERE id = ?"
        guard let current = try Capture.fetchOne(db, sql: sql, arguments: [captureID]) else {
            throw ArchiveError.storage(problem: "capture \(captureID) is missing")
        }
        let previousID = try Int64.fetchOne(
            db, sql: "SELECT previousCaptureId FROM capture WHERE id = ?", arguments: [captureID])
        let previous = try previousID.flatMap { try Capture.fetchOne(db, sql: sql, arguments: [$0]) }
        var pair = CapturePair(current: current, previous: previous, recordIDFloor: recordIDFloor)
        if let name = try String.fetchOne(
            db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [ArchiveStore.dayZoneKey]),
            let zone = TimeZone(identifier: name)
        {
            pair.dayZone = zone
        }
        return pair
    }

    /// Seconds between the two exports.
    var interval: Double? { previous.map { current.date - $0.date } }

    /// Whether the captures are the live path's: there, a check reads only what changed (a delta
    /// capture), so what a capture holds is what is present after it, not what it saw.
    var isLive: Bool { current.origin == LiveCapture.origin }

    /// SQL true for a record C holds, over `record` and its `sighting` (``RecordSightings/join``).
    /// An export capture holds what it saw; a live capture, every live record present after it
    /// (not gone, or gone before and seen again now — not one it read and then saw deleted).
    var heldByCurrent: String {
        isLive
            ? """
            (healthKitUUID IS NOT NULL
                AND (goneCapture IS NULL OR (sighting.lastSeenCapture = :current AND goneCapture <> :current)))
            """
            : "sighting.lastSeenCapture = :current"
    }

    /// SQL true for a record P held: for exports, seen last in P (gone since) or seen in P and
    /// again in C; for the live path, present before C (first seen earlier, not gone before C).
    var heldByPrevious: String {
        isLive
            ? "(healthKitUUID IS NOT NULL AND firstSeenCapture < :current AND (goneCapture IS NULL OR goneCapture = :current))"
            : """
            (sighting.lastSeenCapture = :previous
                OR (sighting.lastSeenCapture = :current AND sighting.previousSeenCapture IS :previous))
            """
    }

    /// Records of each type C and P hold (their per-type counts).
    func typeCounts(_ db: Database, capture: Int64?) throws -> [String: Int] {
        guard let capture else { return [:] }
        let rows = try Row.fetchAll(
            db, sql: "SELECT type, count FROM typeSnapshot WHERE captureId = ?", arguments: [capture])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["type"], $0["count"]) })
    }
}

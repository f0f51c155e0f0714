import Foundation
internal import GRDB

extension ArchiveStore {
    /// Records capture `capture` marked deleted, and those it found replaced or written again.
    public func goneCounts(_ capture: Int64) throws -> (deleted: Int, updated: Int) {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT goneReason, COUNT(*) AS n FROM record WHERE goneCapture = ? GROUP BY goneReason",
                arguments: [capture])
            let counts = Dictionary(
                uniqueKeysWithValues: rows.compactMap { row in
                    (row["goneReason"] as GoneReason?).map { ($0, row["n"] as Int) }
                })
            return (counts[.deleted] ?? 0, (counts[.replaced] ?? 0) + (counts[.reissued] ?? 0))
        }
    }

    /// The records read from HealthKit the archive holds now.
    public func liveRecordCount() throws -> Int {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE healthKitUUID IS NOT NULL AND goneCapture IS NULL") ?? 0
        }
    }
}

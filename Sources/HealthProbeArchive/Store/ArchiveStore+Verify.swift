import Foundation
internal import GRDB

/// What `archive verify` found: SQLite's integrity check and the archive's own invariants.
public struct ArchiveVerification: Sendable, Equatable, Codable {
    /// `ok`, or what SQLite's integrity check found (its first lines).
    public var integrity: String
    /// Complete captures.
    public var captures: Int
    /// Each broken invariant in words; empty when intact.
    public var problems: [String]
    public var checkedAt: Date

    public var isIntact: Bool { problems.isEmpty }

    /// What the screens keep of it.
    public var integrityCheck: IntegrityCheck {
        IntegrityCheck(result: isIntact ? "ok" : problems.joined(separator: "; "), checkedAt: checkedAt)
    }
}

extension ArchiveStore {
    /// Checks the whole archive: SQLite's integrity check (every page and index, seconds on a
    /// large archive), its foreign keys, and what HealthProbe itself guarantees — every complete
    /// capture complete, no capture left running but a live check to be resumed, each latest
    /// capture's per-type counts equal to the records it holds. Reads only, in one read transaction,
    /// so it runs beside a check; the result is kept for the screens when the archive can be
    /// written at once (`recording`; a copy being checked is not written).
    public func verify(now: Date = Date(), recording: Bool = true) throws -> ArchiveVerification {
        let verification = try read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
            var problems = integrity == ["ok"] ? [] : integrity.map { "SQLite: \($0)" }
            if problems.isEmpty {
                problems += try Self.brokenInvariants(db)
            }
            let captures =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral)") ?? 0
            return ArchiveVerification(
                integrity: integrity.joined(separator: "; "), captures: captures, problems: problems, checkedAt: now)
        }
        if recording { recordWhenFree(verification.integrityCheck) }
        return verification
    }

    private static func brokenInvariants(_ db: Database) throws -> [String] {
        var problems: [String] = []
        let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        if !foreignKeys.isEmpty {
            let tables = Set(foreignKeys.map { $0[0] as String }).sorted()
            problems.append(
                "\(foreignKeys.count) rows refer to rows that do not exist (\(tables.joined(separator: ", ")))")
        }
        let unsighted =
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM record WHERE NOT EXISTS (SELECT 1 FROM recordSighting WHERE recordId = record.id)"
            ) ?? 0
        if unsighted > 0 {
            let records = unsighted == 1 ? "1 record has" : "\(unsighted) records have"
            problems.append("\(records) no sighting: restore a backup of the archive")
        }
        let unfinished = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral) AND completedAt IS NULL
                UNION SELECT id FROM capture WHERE status = \(CaptureStatus.running.sqlLiteral) AND id NOT IN (SELECT captureId FROM liveCheck)
                UNION SELECT id FROM capture WHERE status NOT IN (\(CaptureStatus.complete.sqlLiteral), \(CaptureStatus.running.sqlLiteral), \(CaptureStatus.setAside.sqlLiteral))
                """)
        for capture in unfinished { problems.append("capture \(capture) is neither complete nor a check to resume") }
        let missingPrevious = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM capture WHERE previousCaptureId IS NOT NULL
                    AND previousCaptureId NOT IN (SELECT id FROM capture)
                """)
        for capture in missingPrevious { problems.append("capture \(capture) names a previous capture that is gone") }
        problems += try snapshotMismatches(db)
        problems += try historyBreaks(db)
        return problems
    }

    /// What the history of the included captures rests on (docs/DESIGN.md §7): each export or
    /// backup compared with the included one before it, and every record that is not gone held
    /// by the latest of them.
    private static func historyBreaks(_ db: Database) throws -> [String] {
        let snapshots = CaptureOrigin.snapshots.map(\.sqlLiteral).joined(separator: ", ")
        var problems: [String] = []
        let comparisons = try Row.fetchAll(
            db,
            sql: """
                SELECT id, previousCaptureId, LAG(id) OVER (ORDER BY id) AS before FROM capture
                WHERE status = \(CaptureStatus.complete.sqlLiteral) AND scope = \(CaptureScope.full.sqlLiteral)
                    AND origin IN (\(snapshots))
                """)
        for row in comparisons where (row["previousCaptureId"] as Int64?) != (row["before"] as Int64?) {
            let compared = (row["previousCaptureId"] as Int64?).map { "capture \($0)" } ?? "an empty archive"
            let before = (row["before"] as Int64?).map { "capture \($0)" } ?? "none"
            problems.append(
                "capture \(row["id"] as Int64) was compared with \(compared), but the included capture before it is "
                    + "\(before): set it aside and check its export again")
        }
        guard let latest = try LatestCapture.id(db, origins: CaptureOrigin.snapshots, scope: .full) else {
            return problems
        }
        let unheld =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM record \(RecordSightings.join)
                    WHERE goneCapture IS NULL AND healthKitUUID IS NULL AND sighting.lastSeenCapture <> ?1
                        AND sighting.lastSeenCapture IN (SELECT id FROM capture WHERE origin IN (\(snapshots)))
                    """, arguments: [latest]) ?? 0
        if unheld > 0 {
            problems.append(
                "\(unheld) records are neither gone nor held by the latest capture (\(latest)): check the latest "
                    + "export again, or restore a backup of the archive")
        }
        return problems
    }

    /// The latest complete snapshot capture's per-type counts against the records it saw last,
    /// type by type. An export and a Health database are both snapshots, and each marks the
    /// records it holds as seen by it: so only the latest of either still holds all it counted
    /// (an export before a backup holds none once the backup has met them). A live capture's
    /// per-type counts are a running total, checked by the live path itself.
    private static func snapshotMismatches(_ db: Database) throws -> [String] {
        guard
            let capture = try LatestCapture.id(db, origins: CaptureOrigin.snapshots, scope: .full)
        else { return [] }
        let snapshot = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db, sql: "SELECT type, count FROM typeSnapshot WHERE captureId = ?", arguments: [capture]
            ).map { ($0["type"] as String, $0["count"] as Int) })
        let held = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db,
                sql: """
                    SELECT type, COUNT(*) AS n FROM record \(RecordSightings.join)
                    WHERE sighting.lastSeenCapture = ? GROUP BY type
                    """,
                arguments: [capture]
            ).map { ($0["type"] as String, $0["n"] as Int) })
        return Set(snapshot.keys).union(held.keys).sorted().compactMap { type in
            let expected = snapshot[type] ?? 0
            let found = held[type] ?? 0
            return expected == found
                ? nil
                : "capture \(capture) counted \(EvidenceText.grouped(expected)) \(HealthKitCatalog.displayName(of: type)) "
                    + "records but holds \(EvidenceText.grouped(found)) (\(type)): check the latest export again, or "
                    + "put back a copy made with `healthprobe archive backup`"
        }
    }
}

import Foundation
internal import GRDB

/// A capture set aside: another person's export, the wrong file. It stays in the archive (its
/// row, counts, files, anomalies, and the records only it held) but takes no part in any
/// comparison, figure or anomaly; the records are as they were before it, its anomalies are
/// withdrawn with the reason, and the trail says who set it aside and why.
///
/// The archive keeps the state of each record, not each capture's list of records, so a capture
/// can be set aside only while no later snapshot was compared with it: its changes to the records
/// are then exactly what it wrote, and each is kept in `setAsideChange` so that `include` puts
/// them back. A capture compared since asks for the later ones to be set aside first.
enum CaptureSetAside {
    /// What a capture changed, as `setAsideChange.change` names it.
    enum Change: String, ArchiveKeyword {
        /// A record it saw first (its occurrence kept: the row's own is freed for later captures).
        case first
        /// A record it saw again (its `lastSeenCapture` goes back to the previous sighting).
        case seen
        /// A record it found gone (its reason kept).
        case gone
        /// A record it saw come back (the absence it closed kept).
        case returned
    }

    /// Sets `capture` aside for `reason`, inside the caller's transaction.
    static func setAside(_ capture: Int64, reason: String, at now: Date, _ db: Database) throws {
        guard try captureStatus(capture, db) == .complete else {
            throw CaptureSetAsideRefusal.alreadySetAside(capture: capture)
        }
        try requireLatest(capture, db)
        try keepAndUndoChanges(of: capture, db)
        try SourceArrival.rebuild(db)
        try db.execute(
            sql: """
                UPDATE anomaly SET withdrawnAt = ?1, withdrawnReason = ?2 WHERE captureId = ?3 AND withdrawnAt IS NULL
                """, arguments: [now.timeIntervalSince1970, reason, capture])
        let withdrawn = db.changesCount
        try db.execute(
            sql: """
                UPDATE capture SET status = \(CaptureStatus.setAside.sqlLiteral), setAsideAt = ?, setAsideReason = ?
                WHERE id = ?
                """, arguments: [now.timeIntervalSince1970, reason, capture])
        try RestoredRecords.refresh(db)
        try GraphSyncState.requireRewrite(db)
        try AuditLog.append(
            db, event: .captureSetAside, captureID: capture,
            message: "capture \(capture) set aside (\(reason)): left out of every comparison"
                + (withdrawn > 0 ? ", \(withdrawn) \(withdrawn == 1 ? "anomaly" : "anomalies") withdrawn" : ""))
    }

    /// Takes `capture` back into the comparisons, inside the caller's transaction.
    static func include(_ capture: Int64, _ db: Database) throws {
        guard try captureStatus(capture, db) == .setAside else {
            throw CaptureSetAsideRefusal.notSetAside(capture: capture)
        }
        try requireLatest(capture, db, including: true)
        try requireSameComparison(capture, db)
        try redoChanges(of: capture, db)
        try AnomalyRecovery.record(db, captureID: capture)
        try SourceArrival.rebuild(db)
        try db.execute(
            sql: "UPDATE anomaly SET withdrawnAt = NULL, withdrawnReason = NULL WHERE captureId = ?",
            arguments: [capture])
        try db.execute(
            sql: """
                UPDATE capture SET status = \(CaptureStatus.complete.sqlLiteral), setAsideAt = NULL,
                    setAsideReason = NULL
                WHERE id = ?
                """, arguments: [capture])
        try RestoredRecords.refresh(db)
        try GraphSyncState.requireRewrite(db)
        try AuditLog.append(
            db, event: .captureIncluded, captureID: capture,
            message: "capture \(capture) included again: compared as before it was set aside")
    }

    /// The capture's status, refused when it is unknown, running, or the live path's.
    private static func captureStatus(_ capture: Int64, _ db: Database) throws -> CaptureStatus {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT status, origin FROM capture WHERE id = ?", arguments: [capture]),
            let status = CaptureStatus(rawValue: row["status"]), status != .running
        else { throw CaptureSetAsideRefusal.unknownCapture(capture: capture) }
        let origin: CaptureOrigin = try row["origin"]
        guard CaptureOrigin.snapshots.contains(origin) else { throw CaptureSetAsideRefusal.live(capture: capture) }
        return status
    }

    /// Refuses when a later snapshot was compared with the archive `capture` left (what that one
    /// found rests on it), or, to take it back, was checked since it was set aside.
    private static func requireLatest(_ capture: Int64, _ db: Database, including: Bool = false) throws {
        let later = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM capture WHERE id > ? AND status IN (\(CaptureStatus.complete.sqlLiteral), \(CaptureStatus.running.sqlLiteral))
                    AND origin IN (\(CaptureOrigin.export.sqlLiteral), \(CaptureOrigin.backup.sqlLiteral))
                ORDER BY id
                """, arguments: [capture])
        guard later.isEmpty else {
            throw including
                ? CaptureSetAsideRefusal.checkedSince(capture: capture, later: later)
                : CaptureSetAsideRefusal.comparedSince(capture: capture, later: later)
        }
    }

    /// Refuses to take a capture back when the archive it would follow is not the one it was
    /// compared with: what it found (gone, new, back, its anomalies) was measured against that
    /// one, and put back over another it would say what never happened.
    private static func requireSameComparison(_ capture: Int64, _ db: Database) throws {
        let comparedWith = try Int64.fetchOne(
            db, sql: "SELECT previousCaptureId FROM capture WHERE id = ?", arguments: [capture])
        let follows = try LatestCapture.id(db, origins: CaptureOrigin.snapshots, scope: .full, before: capture)
        guard comparedWith == follows else {
            throw CaptureSetAsideRefusal.comparedWithAnother(
                capture: capture, comparedWith: comparedWith, follows: follows)
        }
    }

    /// Keeps what the capture changed and puts the records back as they were before it (the
    /// order of ``ArchiveStore/undoCapture(_:_:)``, without deleting a row).
    private static func keepAndUndoChanges(of capture: Int64, _ db: Database) throws {
        let keep =
            "INSERT INTO setAsideChange (captureId, change, recordId, occurrence, lastSeenCapture, goneCapture, goneReason)"
        try db.execute(
            sql: """
                \(keep) SELECT :capture, \(Change.first.sqlLiteral), id, occurrence, NULL, goneCapture, goneReason
                FROM record WHERE firstSeenCapture = :capture;
                \(keep) SELECT :capture, \(Change.returned.sqlLiteral), recordId, NULL, lastSeenCapture, goneCapture, goneReason
                FROM recordAbsence WHERE returnCapture = :capture;
                \(keep) SELECT :capture, \(Change.gone.sqlLiteral), id, NULL, NULL, goneCapture, goneReason
                FROM record WHERE goneCapture = :capture AND firstSeenCapture < :capture;
                \(keep) SELECT :capture, \(Change.seen.sqlLiteral), id, NULL, sighting.previousSeenCapture, NULL, NULL
                FROM record \(RecordSightings.join)
                WHERE sighting.lastSeenCapture = :capture AND firstSeenCapture < :capture;
                \(Self.unrecover)
                UPDATE record SET goneCapture = absence.goneCapture, goneReason = absence.goneReason
                FROM (SELECT recordId, goneCapture, goneReason FROM recordAbsence WHERE returnCapture = :capture) AS absence
                WHERE record.id = absence.recordId;
                DELETE FROM recordAbsence WHERE returnCapture = :capture;
                UPDATE record SET goneCapture = NULL, goneReason = NULL WHERE goneCapture = :capture AND firstSeenCapture < :capture;
                \(RecordSightings.stepBack(where: "sighting.lastSeenCapture = :capture AND record.firstSeenCapture < :capture"));
                UPDATE record SET occurrence = -id, goneCapture = :capture, goneReason = \(GoneReason.setAside.sqlLiteral)
                WHERE firstSeenCapture = :capture;
                """, arguments: ["capture": capture])
    }

    /// The losses this capture saw come back (partly or whole) count only what earlier captures
    /// brought back, and name the last of those (``AnomalyRecovery``).
    private static let unrecover = """
        UPDATE anomaly SET recoveredCount = max(0, recoveredCount - back.records), recoveredAt = NULL,
            recoveredCapture = (
                SELECT MAX(earlier.returnCapture) FROM anomalyRecord AS link
                JOIN recordAbsence AS earlier ON earlier.recordId = link.recordId
                WHERE link.anomalyId = anomaly.id AND link.role = 'vanished'
                    AND earlier.returnCapture > anomaly.captureId AND earlier.returnCapture < :capture)
        FROM (
            SELECT link.anomalyId AS id, COUNT(*) AS records FROM recordAbsence AS absence
            JOIN anomalyRecord AS link ON link.recordId = absence.recordId AND link.role = 'vanished'
            WHERE absence.returnCapture = :capture GROUP BY link.anomalyId) AS back
        WHERE anomaly.id = back.id AND anomaly.recoveredCapture = :capture;
        """

    /// Puts back what ``keepAndUndoChanges(of:_:)`` kept, in the reverse order. A record the
    /// capture saw first takes its occurrence again; should a later capture have taken it (it
    /// cannot while the capture is the latest), the unique index refuses and nothing changes.
    private static func redoChanges(of capture: Int64, _ db: Database) throws {
        let kept = "FROM setAsideChange WHERE captureId = :capture AND change ="
        try db.execute(
            sql: """
                UPDATE record SET occurrence = kept.occurrence, goneCapture = kept.goneCapture, goneReason = kept.goneReason
                FROM (SELECT recordId, occurrence, goneCapture, goneReason \(kept) \(Change.first.sqlLiteral)) AS kept
                WHERE record.id = kept.recordId;
                UPDATE recordSighting SET previousSeenCapture = lastSeenCapture, lastSeenCapture = :capture
                WHERE recordId IN (SELECT recordId \(kept) \(Change.seen.sqlLiteral));
                UPDATE record SET goneCapture = :capture, goneReason = kept.goneReason
                FROM (SELECT recordId, goneReason \(kept) \(Change.gone.sqlLiteral)) AS kept
                WHERE record.id = kept.recordId;
                INSERT INTO recordAbsence (recordId, lastSeenCapture, goneCapture, goneReason, returnCapture)
                SELECT recordId, lastSeenCapture, goneCapture, goneReason, :capture \(kept) \(Change.returned.sqlLiteral);
                UPDATE record SET goneCapture = NULL, goneReason = NULL
                WHERE id IN (SELECT recordId \(kept) \(Change.returned.sqlLiteral));
                DELETE FROM setAsideChange WHERE captureId = :capture;
                """, arguments: ["capture": capture])
    }
}

/// Why a capture could not be set aside or taken back. Nothing was changed.
public enum CaptureSetAsideRefusal: Refusal, LocalizedError, Equatable {
    case unknownCapture(capture: Int64)
    case live(capture: Int64)
    case alreadySetAside(capture: Int64)
    case notSetAside(capture: Int64)
    /// Later snapshots were compared with the archive this capture left.
    case comparedSince(capture: Int64, later: [Int64])
    /// Later snapshots were checked while this capture was set aside.
    case checkedSince(capture: Int64, later: [Int64])
    /// The capture was compared with `comparedWith` (nil: an empty archive), and would now follow
    /// `follows`, taken back or checked since.
    case comparedWithAnother(capture: Int64, comparedWith: Int64?, follows: Int64?)
    case noReason
    /// A reason of more than a line: the trail and every list show it on one.
    case unshowableReason

    public var exitCode: Int32 { RefusalCode.usage }
    public var archiveLeftAsItWas: Bool { true }
    public var errorDescription: String? { message }

    public var message: String {
        switch self {
        case .unknownCapture(let capture):
            "there is no complete capture \(capture) in this archive"
        case .live(let capture):
            "capture \(capture) is the app's live check: only an export's or a backup's capture can be set aside"
        case .alreadySetAside(let capture):
            "capture \(capture) is already set aside"
        case .notSetAside(let capture):
            "capture \(capture) is not set aside"
        case .comparedSince(let capture, let later):
            "\(Self.were(later)) compared with the archive as capture \(capture) left it: set "
                + "\(later.count == 1 ? "that one" : "those") aside first, latest first"
        case .checkedSince(let capture, let later):
            "\(Self.were(later)) checked while capture \(capture) was set aside: set "
                + "\(later.count == 1 ? "it" : "them") aside first, latest first, to compare capture \(capture) again"
        case .comparedWithAnother(let capture, let comparedWith, let follows):
            "capture \(capture) was compared with "
                + (comparedWith.map { "capture \($0)" } ?? "an empty archive") + ", and "
                + (follows.map { "capture \($0) is the one before it now" } ?? "no capture is before it now")
                + ": what it found would not hold. "
                + (follows.map { "Set capture \($0) aside first, or check capture \(capture)'s export again" }
                    ?? "Check capture \(capture)'s export again")
        case .noReason:
            "say why with --reason: the trail keeps it"
        case .unshowableReason:
            "a --reason is one line of at most \(UntrustedText.fieldLimit) characters, without control characters"
        }
    }

    /// "capture 3 was", "captures 3, 4 were".
    private static func were(_ captures: [Int64]) -> String {
        let ids = captures.map(String.init).joined(separator: ", ")
        return captures.count == 1 ? "capture \(ids) was" : "captures \(ids) were"
    }
}

import Foundation
internal import GRDB

/// A completed capture as the command line and scripts see it (docs/DESIGN.md §9): `records` counts the
/// export's top-level elements other than `ExportDate` and `Me`, unreadable ones included;
/// `new + unchanged = records`; `gone` counts what the previous capture held and this one does not.
public struct CaptureSummary: Sendable, Codable, Equatable, RowDecodable {
    public var id: Int64
    public var origin: CaptureOrigin
    public var scope: CaptureScope
    /// The export's own date (for a live check, when HealthKit was read). Dates are whole seconds,
    /// ISO 8601 in UTC in JSON (``ReportJSON``).
    public var exportDate: Date?
    public var startedAt: Date
    public var completedAt: Date?
    public var previousCaptureId: Int64?
    public var records: Int
    public var new: Int
    /// Of the new, the samples HealthProbe put back into Health (a restore's), each matched to
    /// the record it restores: not records of unknown origin.
    public var restored: Int
    public var gone: Int
    public var unchanged: Int
    public var unreadable: Int
    public var replacedCharacters: Int
    /// Top-level elements by name (for a backup: samples, deletions, housekeeping deletions and
    /// samples of types not read).
    public var elementCounts: [String: Int]
    /// A backup's: records found deleted in Health (its tombstones), counted in `gone`.
    public var deletedInHealth: Int?
    /// A backup's: records the previous capture held of kinds a Health database does not
    /// describe (activity summaries, correlations, …), carried over and not compared.
    public var notCompared: Int?
    /// Set aside by the user (`captures exclude`): kept, and left out of every comparison.
    public var setAside: SetAside?

    /// When a capture was set aside, and why (the user's words).
    public struct SetAside: Sendable, Codable, Equatable {
        public var at: Date
        public var reason: String
    }

    init(row: Row) throws {
        id = row["id"]
        origin = try row["origin"]
        scope = try row["scope"]
        exportDate = (row["exportDate"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        startedAt = Date(timeIntervalSince1970: (row["startedAt"] as Double).rounded(.down))
        completedAt = (row["completedAt"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        previousCaptureId = row["previousCaptureId"]
        records = row["records"]
        new = row["new"]
        restored = row["restored"] ?? 0
        gone = row["gone"]
        unchanged = row["unchanged"]
        unreadable = row["unreadable"]
        replacedCharacters = row["replacedCharacters"]
        let countsText: String = row["elementCounts"] ?? "{}"
        elementCounts = (try? JSONDecoder().decode([String: Int].self, from: Data(countsText.utf8))) ?? [:]
        if let at = row["setAsideAt"] as Double?, let reason = row["setAsideReason"] as String? {
            setAside = SetAside(at: Date(timeIntervalSince1970: at.rounded(.down)), reason: reason)
        }
        if origin == .backup {
            deletedInHealth = row["deletedInHealth"]
            notCompared = row["notCompared"]
        }
    }
}

extension ArchiveStore {
    /// Complete captures, oldest first.
    public func fetchCaptures() throws -> [CaptureSummary] {
        try fetchCaptures(includingSetAside: false)
    }

    /// Complete captures, oldest first; with those set aside when asked (they compare with nothing).
    public func fetchCaptures(includingSetAside: Bool) throws -> [CaptureSummary] {
        let statuses = [CaptureStatus.complete] + (includingSetAside ? [.setAside] : [])
        return try read { db in
            try CaptureSummary.fetchAll(
                db,
                sql: """
                    SELECT * FROM capture WHERE status IN (\(statuses.map(\.sqlLiteral).joined(separator: ", ")))
                    ORDER BY id
                    """)
        }
    }

    /// Sets a capture aside: the wrong file, someone else's export. Kept in the archive and the
    /// trail, left out of every comparison, figure and anomaly (its anomalies withdrawn with
    /// `reason`); refused (``CaptureSetAsideRefusal``) unless it is the latest export or backup.
    @discardableResult
    public func setCaptureAside(_ id: Int64, reason: String, now: Date = Date()) throws -> CaptureSummary {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw CaptureSetAsideRefusal.noReason }
        guard reason.count <= UntrustedText.fieldLimit, !UntrustedText.hasControls(reason) else {
            throw CaptureSetAsideRefusal.unshowableReason
        }
        return try write { db in
            try CaptureSetAside.setAside(id, reason: reason, at: now, db)
            return try Self.captureRow(id, db)
        }
    }

    /// Takes a capture set aside back into the comparisons, as it was before.
    @discardableResult
    public func includeCapture(_ id: Int64) throws -> CaptureSummary {
        try write { db in
            try CaptureSetAside.include(id, db)
            return try Self.captureRow(id, db)
        }
    }

    private static func captureRow(_ id: Int64, _ db: Database) throws -> CaptureSummary {
        guard let summary = try CaptureSummary.fetchOne(db, sql: "SELECT * FROM capture WHERE id = ?", arguments: [id])
        else { throw CaptureSetAsideRefusal.unknownCapture(capture: id) }
        return summary
    }

    public func fetchCapture(id: Int64) throws -> CaptureSummary? {
        try read { db in
            try CaptureSummary.fetchOne(
                db, sql: "SELECT * FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral) AND id = ?",
                arguments: [id])
        }
    }

    /// The latest complete full capture of an origin: what the next capture is compared with.
    /// The capture an export or a backup is compared with: the latest complete full capture of
    /// either (``CaptureOrigin/snapshots``).
    static func latestSnapshotCaptureID(_ db: Database) throws -> Int64? {
        try LatestCapture.id(db, origins: CaptureOrigin.snapshots, scope: .full)
    }

    public func fetchAuditEntries() throws -> [AuditLog.Entry] {
        try read { db in try AuditLog.Entry.fetchAll(db, sql: "SELECT * FROM auditEntry ORDER BY id") }
    }
}

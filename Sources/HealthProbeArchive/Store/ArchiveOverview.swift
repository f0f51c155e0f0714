import Foundation
internal import GRDB

/// What the screens show of the archive at a glance, read from captures' per-type counts and small
/// tables only — never a count over the records — so that it costs the same at a thousand
/// records and at ten million.
public struct ArchiveOverview: Sendable, Codable, Equatable {
    public struct TypeCoverage: Sendable, Codable, Equatable {
        /// The HealthKit identifier.
        public var type: String
        /// Records of the type the last capture holds.
        public var records: Int
        public var sources: Int
    }

    /// Complete captures.
    public var captures: Int
    public var lastCapture: CaptureSummary?
    /// When HealthProbe last looked: the later of the last capture and the live monitor's last check.
    public var lastCheckedAt: Date?
    /// When every record was last re-read: an export's check, or the live path's verification scan.
    public var lastVerifiedAt: Date?
    /// Records the last capture holds, summed over its types.
    public var recordsTracked: Int
    /// Types the last capture holds, most records first.
    public var types: [TypeCoverage]
    /// Anomalies ever found, resolved ones included.
    public var anomaliesAllTime: Int
    /// Unresolved anomalies by severity.
    public var openAnomalies: [Severity: Int]
    /// The live monitor's own status, when it has checked.
    public var monitorStatus: MonitorStatus?
    /// The file and its write-ahead log, in bytes (0 in memory).
    public var archiveBytes: Int64
    /// The last integrity check, if any has run.
    public var integrity: IntegrityCheck?
}

/// The result of SQLite's integrity check over the archive, and when it ran.
public struct IntegrityCheck: Sendable, Codable, Equatable {
    /// `ok`, or what SQLite found.
    public var result: String
    public var checkedAt: Date

    public var isOK: Bool { result == "ok" }
}

extension ArchiveStore {
    public func fetchOverview() throws -> ArchiveOverview {
        try read { db in
            let last = try LatestCapture.id(db).flatMap {
                try CaptureSummary.fetchOne(db, sql: "SELECT * FROM capture WHERE id = ?", arguments: [$0])
            }
            var types: [ArchiveOverview.TypeCoverage] = []
            if let last {
                types = try Row.fetchAll(
                    db, sql: "SELECT type, count, sourceCounts FROM typeSnapshot WHERE captureId = ?",
                    arguments: [last.id]
                ).map { row in
                    ArchiveOverview.TypeCoverage(
                        type: row["type"], records: row["count"], sources: Self.sourceCounts(row["sourceCounts"]).count)
                }
                types.sort { ($0.records, $1.type) > ($1.records, $0.type) }
            }
            let settings = try SettingRows.values(
                db,
                keys: [
                    MonitorState.prefix + "lastCheckedAt", MonitorState.prefix + "status", IntegrityCheck.resultKey,
                    IntegrityCheck.dateKey,
                ])
            let captureTimes = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS complete, MAX(completedAt) AS checked,
                        MAX(CASE WHEN scope = \(CaptureScope.full.sqlLiteral) THEN completedAt END) AS verified
                    FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral)
                    """)
            let liveChecked = settings[MonitorState.prefix + "lastCheckedAt"].flatMap(Double.init)
            let checked = [captureTimes?["checked"] as Double?, liveChecked].compactMap { $0 }.max()
            let open = try Row.fetchAll(
                db,
                sql:
                    "SELECT severity, COUNT(*) AS n FROM anomaly WHERE \(AnomalyRecovery.openCondition) GROUP BY severity"
            )
            var integrity: IntegrityCheck?
            if let result = settings[IntegrityCheck.resultKey],
                let at = settings[IntegrityCheck.dateKey].flatMap(Double.init)
            {
                integrity = IntegrityCheck(result: result, checkedAt: Date(timeIntervalSince1970: at))
            }
            return ArchiveOverview(
                captures: captureTimes?["complete"] ?? 0,
                lastCapture: last,
                lastCheckedAt: checked.map { Date(timeIntervalSince1970: $0) },
                lastVerifiedAt: (captureTimes?["verified"] as Double?).map { Date(timeIntervalSince1970: $0) },
                recordsTracked: types.reduce(0) { $0 + $1.records }, types: types,
                anomaliesAllTime: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM anomaly WHERE withdrawnAt IS NULL")
                    ?? 0,
                openAnomalies: Dictionary(
                    uniqueKeysWithValues: open.compactMap { row in
                        Severity(rawValue: row["severity"]).map { ($0, row["n"] as Int) }
                    }),
                monitorStatus: settings[MonitorState.prefix + "status"].flatMap {
                    try? JSONDecoder().decode(MonitorStatus.self, from: Data($0.utf8))
                },
                archiveBytes: fileBytes(), integrity: integrity)
        }
    }

    /// Verifies the whole archive (``verify(now:)``: SQLite's integrity check and HealthProbe's
    /// own invariants, seconds on a large archive) and returns the result the screens keep.
    @discardableResult
    public func checkIntegrity(now: Date = Date()) throws -> IntegrityCheck {
        try verify(now: now).integrityCheck
    }

    /// Keeps `check` for the screens, and notes a problem in the audit trail — when the archive
    /// can be written within a moment: a check running in another process holds it for minutes,
    /// and the result is not worth waiting for (the caller has it).
    func recordWhenFree(_ check: IntegrityCheck) {
        _ = try? writeWhenFree { db in
            try SettingRows.set(db, IntegrityCheck.resultKey, check.result)
            try SettingRows.set(db, IntegrityCheck.dateKey, "\(check.checkedAt.timeIntervalSince1970)")
            if !check.isOK {
                try AuditLog.append(db, event: .integrityChecked, message: "the integrity check found problems")
            }
        }
    }
}

extension IntegrityCheck {
    static let resultKey = "archive.integrity"
    static let dateKey = "archive.integrityCheckedAt"
}

extension ArchiveOverview {
    /// How the user's Health data looks: unknown before the first check or while the live
    /// monitor cannot tell (Health access off), else the worst unresolved anomaly — info counting
    /// as healthy, and resolving what was looked at making it healthy again.
    public var status: MonitorStatus {
        MonitorStatus.forArchive(captures: captures, openAnomalies: openAnomalies, monitorStatus: monitorStatus)
    }
}

extension MonitorStatus {
    public static let neverChecked = MonitorStatus.unknown(reason: "HealthProbe has not checked yet")

    static func forArchive(captures: Int, openAnomalies: [Severity: Int], monitorStatus: MonitorStatus?)
        -> MonitorStatus
    {
        if captures == 0 { return monitorStatus ?? .neverChecked }
        if case .unknown = monitorStatus, let monitorStatus { return monitorStatus }
        return worst(openAnomalies.filter { $0.value > 0 }.keys)
    }
}

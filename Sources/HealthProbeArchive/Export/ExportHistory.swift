import Foundation
internal import GRDB

/// One run in the export history: when, what, how much, where, and how it ended.
public struct ExportRun: Sendable, Codable, Equatable, RowDecodable {
    public var id: Int64
    /// Whole seconds; ISO 8601 in UTC in JSON (``ReportJSON``).
    public var startedAt: Date
    public var finishedAt: Date?
    public var trigger: ExportTrigger
    /// The format's word (`csv`, `apple-health`), as the exporter names it.
    public var format: String
    public var encrypted: Bool
    public var range: String
    public var captureId: Int64?
    public var records: Int?
    public var bytes: Int64?
    public var sha256: String?
    public var path: String
    public var outcome: ExportRunOutcome
    public var problem: String?
    /// The process writing a `running` export.
    var pid: Int32?

    enum CodingKeys: String, CodingKey {
        case id, startedAt, finishedAt, trigger, format, encrypted, range, captureId, records, bytes, sha256, path
        case outcome, problem
    }

    init(row: Row) throws {
        id = row["id"]
        startedAt = Date(timeIntervalSince1970: (row["startedAt"] as Double).rounded(.down))
        finishedAt = (row["finishedAt"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        trigger = ExportTrigger(rawValue: row["trigger"]) ?? .manual
        format = row["format"]
        encrypted = row["encrypted"]
        range = row["selection"]
        captureId = row["captureId"]
        records = row["records"]
        bytes = row["bytes"]
        sha256 = row["sha256"]
        path = row["path"]
        guard let outcome: ExportRunOutcome = row["outcome"] else {
            throw ArchiveError.storage(problem: "export \(id) has an unknown outcome")
        }
        self.outcome = outcome
        problem = row["problem"]
        pid = row["pid"]
    }
}

/// How an export ended, as its history shows it.
public enum ExportRunOutcome: String, Sendable, Codable, StoredWord {
    case completed, failed, cancelled
    /// Still writing (its process is alive).
    case running
    /// Started and never finished: its process was killed, or the machine stopped.
    case interrupted
}

/// What the history notes of an export as it starts.
public struct ExportRunStart: Sendable {
    public var startedAt: Date
    public var trigger: ExportTrigger
    /// The format's word (`csv`, `apple-health`), as the exporter names it.
    public var format: String
    public var encrypted: Bool
    /// The records chosen, in words.
    public var range: String
    public var path: String

    public init(
        startedAt: Date, trigger: ExportTrigger, format: String, encrypted: Bool, range: String, path: String
    ) {
        self.startedAt = startedAt
        self.trigger = trigger
        self.format = format
        self.encrypted = encrypted
        self.range = range
        self.path = path
    }
}

/// How an export ended, as the history records it.
public enum ExportRunEnding: Sendable {
    case completed(captureId: Int64?, records: Int, bytes: Int64, sha256: String?)
    case failed(problem: String, cancelled: Bool)
}

extension ArchiveStore {
    /// Every export, oldest first.
    /// A run noted as started whose process is gone shows as `interrupted`, whether or not a
    /// writer has recorded that yet.
    public func fetchExportRuns() throws -> [ExportRun] {
        try read { db in
            try ExportRun.fetchAll(db, sql: "SELECT * FROM exportRun ORDER BY id").map { run in
                var run = run
                if run.outcome == .running, !ProcessLiveness.isAlive(run.pid) { run.outcome = .interrupted }
                return run
            }
        }
    }

    /// Notes an export as it starts (outcome `running`, with this process's id), so that one
    /// killed before it finished is still listed; returns the run's id, or nil when the archive
    /// could not take the note now (the run is then recorded when it ends).
    public func recordExportStart(_ start: ExportRunStart) -> Int64? {
        var run: Int64?
        try? writeWhenFree { db in
            try Self.markInterruptedExports(db)
            try db.execute(
                sql: "INSERT INTO exportRun (\(Self.startColumns), outcome, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: StatementArguments(
                    Self.columns(start) + [
                        ExportRunOutcome.running.rawValue, ProcessInfo.processInfo.processIdentifier,
                    ]))
            run = db.lastInsertedRowID
        }
        return run
    }

    /// What a run's row says of its start, in ``startColumns``' order.
    private static let startColumns = "startedAt, trigger, format, encrypted, selection, path"
    private static func columns(_ start: ExportRunStart) -> [(any DatabaseValueConvertible)?] {
        [
            start.startedAt.timeIntervalSince1970, start.trigger.rawValue, start.format, start.encrypted,
            start.range, start.path,
        ]
    }

    /// Records how an export ended: in the row its start noted (`run`), else in a new one.
    public func recordExportRun(_ start: ExportRunStart, ending: ExportRunEnding, run: Int64? = nil) throws {
        try write { db in
            var columns: [(any DatabaseValueConvertible)?] = [Date().timeIntervalSince1970]
            switch ending {
            case .completed(let captureId, let records, let bytes, let sha256):
                columns += [captureId, records, bytes, sha256, ExportRunOutcome.completed.rawValue, nil]
            case .failed(let problem, let cancelled):
                columns += [nil, nil, nil, nil, (cancelled ? ExportRunOutcome.cancelled : .failed).rawValue, problem]
            }
            if let run {
                try db.execute(
                    sql: """
                        UPDATE exportRun SET finishedAt = ?, captureId = ?, records = ?, bytes = ?, sha256 = ?,
                            outcome = ?, problem = ?, pid = NULL
                        WHERE id = ?
                        """, arguments: StatementArguments(columns + [run]))
                if db.changesCount > 0 { return }
            }
            try db.execute(
                sql: """
                    INSERT INTO exportRun (\(Self.startColumns), finishedAt, captureId, records, bytes, sha256,
                        outcome, problem)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(Self.columns(start) + columns))
        }
    }

    /// Forgets the note of a run that turned out not to be one (refused before any work).
    public func forgetExportRun(_ run: Int64?) {
        guard let run else { return }
        try? write { db in try db.execute(sql: "DELETE FROM exportRun WHERE id = ?", arguments: [run]) }
    }

    /// Runs noted as started whose process is gone (killed, or the machine stopped) are
    /// `interrupted`.
    static func markInterruptedExports(_ db: Database) throws {
        let running = try Row.fetchAll(
            db, sql: "SELECT id, pid FROM exportRun WHERE outcome = ?", arguments: [ExportRunOutcome.running.rawValue])
        for row in running where !ProcessLiveness.isAlive(row["pid"]) {
            try db.execute(
                sql: "UPDATE exportRun SET outcome = ?, pid = NULL WHERE id = ?",
                arguments: [ExportRunOutcome.interrupted.rawValue, row["id"] as Int64])
        }
    }
}

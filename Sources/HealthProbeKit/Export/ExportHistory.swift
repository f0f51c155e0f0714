import Foundation
import GRDB

/// One run in the export history: when, what, how much, where, and how it ended.
public struct ExportRun: Sendable, Codable, Equatable, FetchableRecord {
    public var id: Int64
    /// Whole seconds; ISO 8601 in UTC in JSON (``ReportJSON``).
    public var startedAt: Date
    public var finishedAt: Date?
    public var trigger: ExportTrigger
    public var format: ExportFormat
    public var encrypted: Bool
    public var range: String
    public var captureId: Int64?
    public var records: Int?
    public var bytes: Int64?
    public var sha256: String?
    public var path: String
    public var outcome: ExportRunOutcome
    public var problem: String?

    public init(row: Row) throws {
        id = row["id"]
        startedAt = Date(timeIntervalSince1970: (row["startedAt"] as Double).rounded(.down))
        finishedAt = (row["finishedAt"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        trigger = ExportTrigger(rawValue: row["trigger"]) ?? .manual
        format = ExportFormat(rawValue: row["format"]) ?? .json
        encrypted = row["encrypted"]
        range = row["selection"]
        captureId = row["captureId"]
        records = row["records"]
        bytes = row["bytes"]
        sha256 = row["sha256"]
        path = row["path"]
        guard let outcome = row["outcome"] as ExportRunOutcome? else {
            throw ArchiveError.storage(problem: "export \(id) has an unknown outcome")
        }
        self.outcome = outcome
        problem = row["problem"]
    }
}

/// How an export ended, as its history shows it.
public enum ExportRunOutcome: String, Sendable, Codable, DatabaseValueConvertible {
    case completed, failed, cancelled
}

enum ExportOutcome {
    case completed(ExportResult)
    case failed(ExportFailure)
}

extension ArchiveStore {
    /// Every export, oldest first.
    public func fetchExportRuns() throws -> [ExportRun] {
        try writer.read { db in try ExportRun.fetchAll(db, sql: "SELECT * FROM exportRun ORDER BY id") }
    }

    func recordExportRun(
        _ request: ExportRequest, startedAt: Date, outcome: ExportOutcome, encrypted: Bool? = nil
    ) throws {
        try writer.write { db in
            var arguments: [(any DatabaseValueConvertible)?] = [
                startedAt.timeIntervalSince1970, Date().timeIntervalSince1970, request.trigger.rawValue,
                request.format.rawValue, encrypted ?? (request.password != nil), request.rangeDescription,
                request.outputPath,
            ]
            switch outcome {
            case .completed(let result):
                arguments += [
                    result.captureId, result.records, result.bytes, result.sha256, ExportRunOutcome.completed, nil,
                ]
            case .failed(let failure):
                arguments += [
                    nil, nil, nil, nil, failure == .cancelled ? ExportRunOutcome.cancelled : .failed,
                    failure.localizedDescription,
                ]
            }
            try db.execute(
                sql: """
                    INSERT INTO exportRun (startedAt, finishedAt, trigger, format, encrypted, selection, path,
                        captureId, records, bytes, sha256, outcome, problem)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: StatementArguments(arguments))
        }
    }
}

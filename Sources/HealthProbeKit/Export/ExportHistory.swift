import Foundation
import GRDB

/// One run in the export history: when, what, how much, where, and how it ended.
public struct ExportRun: Sendable, Codable, Equatable, FetchableRecord {
    public var id: Int64
    public var startedAt: String
    public var finishedAt: String?
    public var trigger: ExportTrigger
    public var format: ExportFormat
    public var encrypted: Bool
    public var range: String
    public var captureId: Int64?
    public var records: Int?
    public var bytes: Int64?
    public var sha256: String?
    public var path: String
    /// `completed`, `failed` or `cancelled`.
    public var outcome: String
    public var problem: String?

    public init(row: Row) throws {
        id = row["id"]
        startedAt = UTCText.iso8601(seconds: (row["startedAt"] as Double).rounded(.down))
        finishedAt = (row["finishedAt"] as Double?).map { UTCText.iso8601(seconds: $0.rounded(.down)) }
        trigger = ExportTrigger(rawValue: row["trigger"]) ?? .manual
        format = ExportFormat(rawValue: row["format"]) ?? .json
        encrypted = row["encrypted"]
        range = row["selection"]
        captureId = row["captureId"]
        records = row["records"]
        bytes = row["bytes"]
        sha256 = row["sha256"]
        path = row["path"]
        outcome = row["outcome"]
        problem = row["problem"]
    }
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
                arguments += [result.captureId, result.records, result.bytes, result.sha256, "completed", nil]
            case .failed(let failure):
                arguments += [
                    nil, nil, nil, nil, failure == .cancelled ? "cancelled" : "failed", failure.localizedDescription,
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

import Foundation
import GRDB

/// A completed capture as the command line and scripts see it (docs/DESIGN.md §9): `records` counts the
/// export's top-level elements other than `ExportDate` and `Me`, unreadable ones included;
/// `new + unchanged = records`; `gone` counts what the previous capture held and this one does not.
public struct CaptureSummary: Sendable, Codable, Equatable, FetchableRecord {
    public var id: Int64
    public var origin: String
    public var scope: String
    /// The export's own date, ISO 8601 in UTC.
    public var exportDate: String?
    public var startedAt: String
    public var completedAt: String?
    public var previousCaptureId: Int64?
    public var records: Int
    public var new: Int
    public var gone: Int
    public var unchanged: Int
    public var unreadable: Int
    public var replacedCharacters: Int
    /// Top-level elements by name.
    public var elementCounts: [String: Int]

    public init(row: Row) throws {
        id = row["id"]
        origin = row["origin"]
        scope = row["scope"]
        exportDate = (row["exportDate"] as Double?).map { UTCText.iso8601(seconds: $0) }
        startedAt = UTCText.iso8601(seconds: (row["startedAt"] as Double).rounded(.down))
        completedAt = (row["completedAt"] as Double?).map { UTCText.iso8601(seconds: $0.rounded(.down)) }
        previousCaptureId = row["previousCaptureId"]
        records = row["records"]
        new = row["new"]
        gone = row["gone"]
        unchanged = row["unchanged"]
        unreadable = row["unreadable"]
        replacedCharacters = row["replacedCharacters"]
        let countsText: String = row["elementCounts"] ?? "{}"
        elementCounts = (try? JSONDecoder().decode([String: Int].self, from: Data(countsText.utf8))) ?? [:]
    }
}

extension ArchiveStore {
    /// Complete captures, oldest first.
    public func fetchCaptures() throws -> [CaptureSummary] {
        try writer.read { db in
            try CaptureSummary.fetchAll(db, sql: "SELECT * FROM capture WHERE status = 'complete' ORDER BY id")
        }
    }

    public func fetchCapture(id: Int64) throws -> CaptureSummary? {
        try writer.read { db in
            try CaptureSummary.fetchOne(
                db, sql: "SELECT * FROM capture WHERE status = 'complete' AND id = ?", arguments: [id])
        }
    }

    /// The latest complete full capture of an origin: what the next capture is compared with.
    static func latestFullCaptureID(_ db: Database, origin: String) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT MAX(id) FROM capture WHERE status = 'complete' AND scope = 'full' AND origin = ?",
            arguments: [origin])
    }

    public func fetchAuditEntries() throws -> [AuditLog.Entry] {
        try writer.read { db in try AuditLog.Entry.fetchAll(db, sql: "SELECT * FROM auditEntry ORDER BY id") }
    }
}

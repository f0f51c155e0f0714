import Foundation
internal import GRDB

extension AuditLog {
    /// Which audit entries to read: one event type or all, newest first, a page at a time.
    public struct Filter: Sendable, Equatable {
        public var event: String?
        public var limit: Int
        public var offset: Int

        public init(event: String? = nil, limit: Int = 100, offset: Int = 0) {
            self.event = event
            self.limit = limit
            self.offset = offset
        }
    }

    /// One page of entries, with how many match and which event types the trail holds.
    public struct Page: Sendable, Equatable {
        public var entries: [Entry]
        public var total: Int
        /// Every event type in the trail, with its count, by name.
        public var eventCounts: [String: Int]
    }

    /// An entry as scripts read it (`healthprobe audit --json`, the Audit Trail's export): the
    /// time in ISO 8601 (``ReportJSON``), whole seconds.
    public struct ExportedEntry: Sendable, Codable, Equatable {
        public var id: Int64
        public var at: Date
        public var event: String
        public var captureId: Int64?
        public var message: String

        public init(_ entry: Entry) {
            id = entry.id
            at = Date(timeIntervalSince1970: entry.at.rounded(.down))
            event = entry.event
            captureId = entry.captureId
            message = entry.message
        }
    }

    /// Entries as a JSON array, oldest first, exactly as `healthprobe audit --json` prints them.
    public static func jsonData(_ entries: [Entry]) throws -> Data {
        try ReportJSON.encode(entries.map(ExportedEntry.init))
    }
}

extension ArchiveStore {
    public func fetchAuditEntries(_ filter: AuditLog.Filter) throws -> AuditLog.Page {
        try read { db in
            let condition = filter.event == nil ? "" : "WHERE event = :event"
            var arguments: StatementArguments = ["limit": filter.limit, "offset": filter.offset]
            if let event = filter.event { arguments += ["event": event] }
            let entries = try AuditLog.Entry.fetchAll(
                db, sql: "SELECT * FROM auditEntry \(condition) ORDER BY id DESC LIMIT :limit OFFSET :offset",
                arguments: arguments)
            let counts = try Row.fetchAll(db, sql: "SELECT event, COUNT(*) AS n FROM auditEntry GROUP BY event")
            let eventCounts = Dictionary(uniqueKeysWithValues: counts.map { ($0["event"] as String, $0["n"] as Int) })
            let total = filter.event.map { eventCounts[$0] ?? 0 } ?? eventCounts.values.reduce(0, +)
            return AuditLog.Page(entries: entries, total: total, eventCounts: eventCounts)
        }
    }
}

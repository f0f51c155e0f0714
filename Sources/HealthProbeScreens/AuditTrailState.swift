import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The Audit Trail: every entry, newest first a page at a time, each with its time, an
/// event-type chip and the message; filtered by event type; exported as JSON.
public struct AuditTrailState: Sendable, Equatable {
    public struct Row: Sendable, Equatable, Identifiable {
        public var id: Int64
        public var at: String
        public var event: String
        /// "capture completed".
        public var eventTitle: String
        public var message: String
    }

    public struct EventChip: Sendable, Equatable {
        public var event: String
        public var title: String
        public var count: Int
        public var selected: Bool
    }

    public var rows: [Row]
    public var chips: [EventChip]
    public var event: String?
    public var total: Int
    public var page: Int
    public var pageCount: Int

    public static let pageSize = 100

    public static func load(
        from trail: ArchiveStore, event: String? = nil, page: Int = 1, format: ScreenFormat = ScreenFormat()
    ) throws -> AuditTrailState {
        let page = max(1, page)
        let result = try trail.fetchAuditEntries(
            AuditLog.Filter(event: event, limit: pageSize, offset: (page - 1) * pageSize))
        return AuditTrailState(
            rows: result.entries.map { entry in
                Row(
                    id: entry.id, at: format.dateTime(Date(timeIntervalSince1970: entry.at)), event: entry.event,
                    eventTitle: title(of: entry.event), message: entry.message)
            },
            chips: result.eventCounts.sorted { $0.key < $1.key }.map {
                EventChip(event: $0.key, title: title(of: $0.key), count: $0.value, selected: $0.key == event)
            }, event: event, total: result.total, page: page,
            pageCount: max(1, (result.total + pageSize - 1) / pageSize))
    }

    /// "captureCompleted" → "capture completed".
    public static func title(of event: String) -> String {
        var words = ""
        for character in event {
            if character.isUppercase && !words.isEmpty { words.append(" ") }
            words.append(Character(character.lowercased()))
        }
        return words
    }

    /// The whole trail as JSON, oldest first: what `healthprobe audit --json` prints.
    public static func exportJSON(from trail: ArchiveStore) throws -> Data {
        try AuditLog.jsonData(trail.fetchAuditEntries())
    }
}

import Foundation
internal import GRDB

/// What an assistant may ask of the archive (`healthprobe mcp`) beside what every face asks:
/// records a page at a time, and a note in the audit trail of every question — read-only apart
/// from that note. (A day's figures are the day figures', ``ArchiveStore/dayFigures(types:days:zone:)``.)
extension ArchiveStore {
    /// A record as an assistant sees it: times, source and unit, the value only when revealed.
    public struct RecordSummary: Sendable, Codable, Equatable {
        public var id: Int64
        public var start: String?
        public var end: String?
        public var source: String?
        public var unit: String?
        public var value: String?
        /// `present`, or `gone` with why.
        public var status: String
    }

    /// Records of `type` starting in `range` (local days of `zone`), held or gone, by id, at most
    /// `limit` after the record `after`; values only when `values` is true. Times are ISO 8601 in
    /// UTC, as every instant an assistant is given.
    public func fetchRecordSummaries(
        type: String, range: DayRange, zone: TimeZone, limit: Int, after: Int64?, values: Bool
    ) throws -> [RecordSummary] {
        var days = LocalDays(zone: zone)
        let instants = days.span(of: range)
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, startDate, endDate, sourceName, unit, value, goneCapture, goneReason FROM record
                    WHERE type = ? AND startDate >= ? AND startDate < ? AND id > ?
                    ORDER BY id LIMIT ?
                    """,
                arguments: [
                    type, instants.lowerBound, instants.upperBound, after ?? 0,
                    min(max(limit, 1), 501),
                ]
            ).map { row in
                RecordSummary(
                    id: row["id"], start: (row["startDate"] as Double?).map { UTCText.iso8601(seconds: $0) },
                    end: (row["endDate"] as Double?).map { UTCText.iso8601(seconds: $0) }, source: row["sourceName"],
                    unit: row["unit"], value: values ? row["value"] : nil,
                    status: row["goneCapture"] as Int64? == nil
                        ? "present" : "gone (\(row["goneReason"] as String? ?? "unknown"))")
            }
        }
    }

    /// Notes an assistant's question in the audit trail: the tool, its arguments' names (never
    /// their values, which may name a day or a type someone would rather keep) and how much it
    /// was answered. A busy archive skips the note rather than the answer.
    public func noteAssistantQuery(tool: String, argumentNames: [String], resultBytes: Int) {
        let arguments =
            argumentNames.isEmpty ? "no arguments" : "arguments " + argumentNames.sorted().joined(separator: ", ")
        try? writeWhenFree { db in
            try AuditLog.append(
                db, event: .assistantQueried,
                message: "assistant asked \(tool) (\(arguments)); answered \(EvidenceText.grouped(resultBytes)) bytes")
        }
    }
}

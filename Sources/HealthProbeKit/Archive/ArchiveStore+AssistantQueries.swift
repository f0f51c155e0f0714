import Foundation
import GRDB

/// What an assistant may ask of the archive (`healthprobe mcp`): day-by-day statistics counted
/// once, records a page at a time, and a note in the audit trail of every question — read-only
/// apart from that note.
extension ArchiveStore {
    /// One local day of a type, over the records the latest capture holds.
    public struct DayStatistics: Sendable, Codable, Equatable {
        public var day: String
        public var count: Int
        /// Of the records with a number; nil when none has one.
        public var sum: Double?
        public var minimum: Double?
        public var maximum: Double?
        public var mean: Double?
        /// Exact copies of a record (one sample written twice) left out of the figures above.
        public var copiesLeftOut: Int
    }

    /// Per local day of `zone` in `range`, the records of `type` the latest capture holds, each
    /// sample once: exact copies (the same semantic fingerprint) count a single time.
    public func dailyStatistics(type: String, range: DayRange, zone: TimeZone) throws -> [DayStatistics] {
        let from = Double(range.first * 86_400) - 86_400
        let to = Double((range.last + 1) * 86_400) + 86_400
        return try writer.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT startDate, numericValue, semanticFingerprint FROM record
                    WHERE type = ? AND goneCapture IS NULL AND startDate >= ? AND startDate < ?
                    """, arguments: [type, from, to])
            var seen: Set<Data> = []
            var days: [Int64: DayStatistics] = [:]
            while let row = try rows.next() {
                guard let start = row[0] as Double? else { continue }
                let local = start + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: start)))
                let day = Int64((local / 86_400).rounded(.down))
                guard day >= range.first, day <= range.last else { continue }
                var stats =
                    days[day]
                    ?? DayStatistics(
                        day: UTCText.day(day), count: 0, sum: nil, minimum: nil, maximum: nil, mean: nil,
                        copiesLeftOut: 0)
                guard seen.insert(row[2] as Data).inserted else {
                    stats.copiesLeftOut += 1
                    days[day] = stats
                    continue
                }
                stats.count += 1
                if let value = row[1] as Double? {
                    stats.sum = (stats.sum ?? 0) + value
                    stats.minimum = min(stats.minimum ?? value, value)
                    stats.maximum = max(stats.maximum ?? value, value)
                }
                days[day] = stats
            }
            return days.keys.sorted().map { key in
                var stats = days[key]!
                let numbers = stats.count
                if let sum = stats.sum, numbers > 0 { stats.mean = sum / Double(numbers) }
                return stats
            }
        }
    }

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

    /// Records of `type` starting in `range` (UTC days), held or gone, by start and id, at most
    /// `limit` after the record `after`; values only when `values` is true.
    public func fetchRecordSummaries(
        type: String, range: DayRange, limit: Int, after: Int64?, values: Bool
    ) throws -> [RecordSummary] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, startDate, endDate, sourceName, unit, value, goneCapture, goneReason FROM record
                    WHERE type = ? AND startDate >= ? AND startDate < ? AND id > ?
                    ORDER BY id LIMIT ?
                    """,
                arguments: [
                    type, Double(range.first * 86_400), Double((range.last + 1) * 86_400), after ?? 0,
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
                message: "assistant asked \(tool) (\(arguments)); answered \(resultBytes) bytes")
        }
    }
}

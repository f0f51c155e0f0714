import Foundation
internal import GRDB

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
    /// sample once: exact copies (the same semantic key, the hash of the semantic fingerprint
    /// the audit's duplicates are found by) count a single time.
    public func dailyStatistics(type: String, range: DayRange, zone: TimeZone) throws -> [DayStatistics] {
        let from = Double(range.first * 86_400) - 86_400
        let to = Double((range.last + 1) * 86_400) + 86_400
        return try writer.read { db in
            // Stepped in place, no row objects, in start order (the index's), so that a day's
            // figures are gathered in one accumulator and stored once when the day changes: a year
            // of heart rate is a hundred thousand rows.
            let rows = try SQLiteRowCursor(
                db,
                sql: """
                    SELECT startDate, numericValue, semanticKey FROM record
                    WHERE type = ? AND goneCapture IS NULL AND startDate >= ? AND startDate < ?
                    ORDER BY startDate
                    """, arguments: [type, from, to])
            var timestamps = ZonedTimestamps(zone: zone)
            // Exact copies share their start (it is part of the semantic fingerprint), and the
            // rows come in start order: the keys of one start instant are all that need keeping.
            var seenAtStart: Set<Int64> = []
            var lastStart = -Double.infinity
            var days: [Int64: DayAccumulator] = [:]
            var current = DayAccumulator()
            var currentDay = Int64.min
            while try rows.step() {
                guard let start = rows.double(0), let key = rows.integer(2) else { continue }
                let day = Int64(((start + Double(timestamps.offset(at: start))) / 86_400).rounded(.down))
                guard day >= range.first, day <= range.last else { continue }
                if day != currentDay {
                    if currentDay != .min { days[currentDay, default: DayAccumulator()].merge(current) }
                    current = DayAccumulator()
                    currentDay = day
                }
                if start != lastStart {
                    seenAtStart.removeAll(keepingCapacity: true)
                    lastStart = start
                }
                if seenAtStart.insert(key).inserted {
                    current.add(rows.double(1))
                } else {
                    current.copies += 1
                }
            }
            if currentDay != .min { days[currentDay, default: DayAccumulator()].merge(current) }
            return days.keys.sorted().map { days[$0]!.statistics(day: $0) }
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

    /// Records of `type` starting in `range` (local days of `zone`), held or gone, by id, at most
    /// `limit` after the record `after`; values only when `values` is true. Times are ISO 8601 in
    /// UTC, as every instant an assistant is given.
    public func fetchRecordSummaries(
        type: String, range: DayRange, zone: TimeZone, limit: Int, after: Int64?, values: Bool
    ) throws -> [RecordSummary] {
        var days = LocalDays(zone: zone)
        let instants = days.span(of: range)
        return try writer.read { db in
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
                message: "assistant asked \(tool) (\(arguments)); answered \(resultBytes) bytes")
        }
    }
}

/// One day's figures while they are gathered.
private struct DayAccumulator {
    var count = 0
    var numbers = 0
    var sum = 0.0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    var copies = 0

    mutating func add(_ value: Double?) {
        count += 1
        guard let value else { return }
        numbers += 1
        sum += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }

    mutating func merge(_ other: DayAccumulator) {
        count += other.count
        numbers += other.numbers
        sum += other.sum
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        copies += other.copies
    }

    func statistics(day: Int64) -> ArchiveStore.DayStatistics {
        ArchiveStore.DayStatistics(
            day: UTCText.day(day), count: count, sum: numbers > 0 ? sum : nil,
            minimum: numbers > 0 ? minimum : nil, maximum: numbers > 0 ? maximum : nil,
            mean: numbers > 0 ? sum / Double(numbers) : nil, copiesLeftOut: copies)
    }
}

import Foundation
import GRDB

/// Records per UTC day of one sample type as the last capture holds them, with the records
/// HealthProbe found vanished (silent deletions) and backfilled (historical insertions) on each
/// day: the numbers behind the dashboard's per-type chart. Read from the capture's day bins and
/// the anomalies' links — never a scan of the records.
public struct DailyRecordSeries: Sendable, Equatable, Codable {
    public struct Day: Sendable, Equatable, Codable {
        /// Days since 1970-01-01, UTC.
        public var day: Int64
        /// Records of the day the last capture holds.
        public var records: Int
        /// Records of the day that vanished without a deletion.
        public var vanished: Int
        /// Records of the day that arrived late, in a later export.
        public var backfilled: Int

        /// "2000-01-01".
        public var date: String { UTCText.day(day) }
    }

    public var type: String
    /// The capture the counts are from.
    public var captureID: Int64?
    /// Consecutive days, oldest first, ending at the latest day with anything to show.
    public var days: [Day]
}

/// Anomalies found per UTC day, by severity: the dashboard's anomalies-over-time chart.
public struct AnomalyTimeline: Sendable, Equatable, Codable {
    public struct Day: Sendable, Equatable, Codable {
        public var day: Int64
        public var counts: [Severity: Int]

        public var date: String { UTCText.day(day) }
        public var total: Int { counts.values.reduce(0, +) }
    }

    /// Consecutive days, oldest first, ending at the latest anomaly's day.
    public var days: [Day]

    public init(days: [Day]) {
        self.days = days
    }
}

extension ArchiveStore {
    /// The series of `type` over at most `dayCount` days.
    public func fetchDailySeries(type: String, dayCount: Int = 60) throws -> DailyRecordSeries {
        try writer.read { db in
            let capture = try Int64.fetchOne(
                db, sql: "SELECT MAX(id) FROM capture WHERE status = \(CaptureStatus.complete.sqlLiteral)")
            var days: [Int64: DailyRecordSeries.Day] = [:]
            func touch(_ day: Int64) -> DailyRecordSeries.Day {
                days[day] ?? DailyRecordSeries.Day(day: day, records: 0, vanished: 0, backfilled: 0)
            }
            if let capture {
                for row in try Row.fetchAll(
                    db, sql: "SELECT day, count FROM typeDayBin WHERE captureId = ? AND type = ?",
                    arguments: [capture, type])
                {
                    var entry = touch(row["day"])
                    entry.records = row["count"]
                    days[entry.day] = entry
                }
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.type AS anomalyType, CAST(r.startDate / 86400 AS INTEGER) AS day,
                        COUNT(*) AS n
                    FROM anomaly AS a
                    JOIN anomalyRecord AS l ON l.anomalyId = a.id
                    JOIN record AS r ON r.id = l.recordId
                    WHERE a.sampleType = ? AND a.type IN ('silent_deletion', 'historical_insertion')
                        AND r.startDate IS NOT NULL
                    GROUP BY a.type, day
                    """, arguments: [type])
            {
                var entry = touch(row["day"])
                if (row["anomalyType"] as String) == AnomalyType.silentDeletion.rawValue {
                    entry.vanished += row["n"] as Int
                } else {
                    entry.backfilled += row["n"] as Int
                }
                days[entry.day] = entry
            }
            guard let last = days.keys.max() else {
                return DailyRecordSeries(type: type, captureID: capture, days: [])
            }
            let first = max(days.keys.min() ?? last, last - Int64(max(1, dayCount)) + 1)
            return DailyRecordSeries(type: type, captureID: capture, days: (first...last).map { touch($0) })
        }
    }

    /// Anomalies found per day over at most `dayCount` days.
    public func fetchAnomalyTimeline(dayCount: Int = 30) throws -> AnomalyTimeline {
        try writer.read { db in
            var counts: [Int64: [Severity: Int]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT CAST(detectedAt / 86400 AS INTEGER) AS day, severity, COUNT(*) AS n
                    FROM anomaly GROUP BY day, severity
                    """)
            {
                guard let severity = Severity(rawValue: row["severity"]) else { continue }
                counts[row["day"], default: [:]][severity] = row["n"]
            }
            guard let last = counts.keys.max() else { return AnomalyTimeline(days: []) }
            let first = max(counts.keys.min() ?? last, last - Int64(max(1, dayCount)) + 1)
            return AnomalyTimeline(days: (first...last).map { AnomalyTimeline.Day(day: $0, counts: counts[$0] ?? [:]) })
        }
    }
}

import Foundation
import GRDB

/// Records per UTC day of one sample type as the last capture holds them, with the records
/// HealthProbe found vanished (silent deletions), backfilled (historical insertions) and surplus
/// (duplicates and source overlaps) on each day: the numbers behind the per-type charts. Read from
/// the capture's day bins and the anomalies' links — never a scan of the records.
public struct DailyRecordSeries: Sendable, Equatable, Codable {
    /// One mark: `daysPerMark` days from `day`.
    public struct Day: Sendable, Equatable, Codable {
        /// Days since 1970-01-01, UTC.
        public var day: Int64
        /// Records the last capture holds.
        public var records: Int
        /// Records that vanished without a deletion.
        public var vanished: Int
        /// Records that arrived late, in a later export.
        public var backfilled: Int
        /// Held records that are surplus copies of another (duplicates, source overlaps).
        public var duplicate = 0

        /// "2000-01-01".
        public var date: String { UTCText.day(day) }
    }

    public var type: String
    /// The capture the counts are from.
    public var captureID: Int64?
    /// The period shown; nil when the type has nothing to show.
    public var range: DayRange?
    /// Days each mark covers (1, or whole weeks over a long period).
    public var daysPerMark: Int
    /// The first and last day the type has anything to show, whatever the period.
    public var dataSpan: DayRange?
    /// Set when the marks are one anomaly's only.
    public var anomalyID: Int64?
    /// Every mark of the period, oldest first.
    public var days: [Day]

    public init(
        type: String, captureID: Int64?, range: DayRange? = nil, daysPerMark: Int = 1, dataSpan: DayRange? = nil,
        anomalyID: Int64? = nil, days: [Day]
    ) {
        self.type = type
        self.captureID = captureID
        self.range = range ?? days.first.map { DayRange(first: $0.day, last: days.last?.day ?? $0.day) }
        self.daysPerMark = daysPerMark
        self.dataSpan = dataSpan ?? self.range
        self.anomalyID = anomalyID
        self.days = days
    }
}

/// What a per-type chart is asked to show.
public struct DailySeriesRequest: Sendable, Equatable {
    public var type: String
    /// Nil: the last ``defaultDayCount`` days up to the latest day with anything to show.
    public var range: DayRange?
    /// Marks of this anomaly only (its vanished, backfilled or surplus records), beside what is held.
    public var anomalyID: Int64?

    public static let defaultDayCount = 60

    public init(type: String, range: DayRange? = nil, anomalyID: Int64? = nil) {
        self.type = type
        self.range = range
        self.anomalyID = anomalyID
    }
}

extension ArchiveStore {
    public func fetchDailySeries(_ request: DailySeriesRequest) throws -> DailyRecordSeries {
        try writer.read { db in
            let capture = try LatestCapture.id(db)
            let marks = try Self.anomalyMarks(db, type: request.type, anomalyID: request.anomalyID)
            var span = marks.keys.min().map { DayRange(first: $0, last: marks.keys.max() ?? $0) }
            if let capture,
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT MIN(day) AS first, MAX(day) AS last FROM typeDayBin WHERE captureId = ? AND type = ?",
                    arguments: [capture, request.type]),
                let first: Int64 = row["first"], let last: Int64 = row["last"]
            {
                span = DayRange(first: min(first, span?.first ?? first), last: max(last, span?.last ?? last))
            }
            guard let span else {
                return DailyRecordSeries(type: request.type, captureID: capture, anomalyID: request.anomalyID, days: [])
            }
            let range = request.range ?? .ending(at: span.last, count: DailySeriesRequest.defaultDayCount)
            let perMark = ChartBinning.daysPerMark(for: range)
            var days = Dictionary(
                uniqueKeysWithValues: ChartBinning.markStarts(in: range, daysPerMark: perMark).map {
                    ($0, DailyRecordSeries.Day(day: $0, records: 0, vanished: 0, backfilled: 0))
                })
            func add(_ day: Int64, _ change: (inout DailyRecordSeries.Day) -> Void) {
                guard range.contains(day) else { return }
                change(&days[ChartBinning.markStart(of: day, in: range, daysPerMark: perMark)]!)
            }
            if let capture {
                for row in try Row.fetchAll(
                    db,
                    sql: "SELECT day, count FROM typeDayBin WHERE captureId = ? AND type = ? AND day BETWEEN ? AND ?",
                    arguments: [capture, request.type, range.first, range.last])
                {
                    add(row["day"]) { $0.records += row["count"] as Int }
                }
            }
            for (day, counts) in marks {
                add(day) {
                    $0.vanished += counts.vanished
                    $0.backfilled += counts.backfilled
                    $0.duplicate += counts.duplicate
                }
            }
            return DailyRecordSeries(
                type: request.type, captureID: capture, range: range, daysPerMark: perMark, dataSpan: span,
                anomalyID: request.anomalyID, days: days.values.sorted { $0.day < $1.day })
        }
    }

    /// Exactly the local days of `zone` an anomaly's records start on (not every day between the
    /// first and the last), or the days of the window a divergence names. Read by quarter hours
    /// (every zone's offset is a whole number of them), so a loss of a million records is a few
    /// thousand rows.
    public func fetchAnomalyDaySet(id: Int64, zone: TimeZone) throws -> Set<Int64> {
        try writer.read { db in
            let quarters = try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT CAST(r.startDate / 900 AS INTEGER) - (r.startDate < 0)
                    FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                    WHERE l.anomalyId = ? AND r.startDate IS NOT NULL
                    """, arguments: [id])
            if quarters.isEmpty {
                guard
                    let window = try Anomaly.fetchOne(db, sql: "SELECT * FROM anomaly WHERE id = ?", arguments: [id])?
                        .namedWindow
                else { return [] }
                return Set(window.first...window.last)
            }
            var days = LocalDays(zone: zone)
            return Set(quarters.map { days.day(of: Double($0) * 900) })
        }
    }

    /// The days an anomaly is about: its records' start days, or the window a divergence names;
    /// nil when it names none.
    public func fetchAnomalyDays(id: Int64) throws -> DayRange? {
        try writer.read { db in
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT MIN(r.startDate) AS first, MAX(r.startDate) AS last
                    FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                    WHERE l.anomalyId = ? AND r.startDate IS NOT NULL
                    """, arguments: [id]),
                let first: Double = row["first"], let last: Double = row["last"]
            {
                return DayRange(first: UTCDay.of(first), last: UTCDay.of(last))
            }
            return try Anomaly.fetchOne(db, sql: "SELECT * FROM anomaly WHERE id = ?", arguments: [id])?.namedWindow
        }
    }

    struct MarkCounts {
        var vanished = 0
        var backfilled = 0
        var duplicate = 0
    }

    /// Records the anomalies of `type` (or the one given) are about, by start day and kind. The
    /// joins run in the order written (`CROSS JOIN`): from the type's few anomalies to their links
    /// by key, rather than through every link in the archive.
    static func anomalyMarks(_ db: Database, type: String, anomalyID: Int64?) throws -> [Int64: MarkCounts] {
        var marks: [Int64: MarkCounts] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.role AS role, \(UTCDay.sql("r.startDate")) AS day, COUNT(*) AS n
                FROM anomaly AS a
                CROSS JOIN anomalyRecord AS l ON l.anomalyId = a.id
                CROSS JOIN record AS r ON r.id = l.recordId
                WHERE a.sampleType = ? AND (? IS NULL OR a.id = ?) AND a.withdrawnAt IS NULL
                    AND l.role IN ('vanished', 'inserted', 'surplus') AND r.startDate IS NOT NULL
                    AND (l.role <> 'vanished' OR r.goneCapture IS NOT NULL)
                GROUP BY l.role, day
                """, arguments: [type, anomalyID, anomalyID])
        while let row = try rows.next() {
            let count: Int = row["n"]
            switch row["role"] as String {
            case "vanished": marks[row["day"], default: MarkCounts()].vanished += count
            case "inserted": marks[row["day"], default: MarkCounts()].backfilled += count
            default: marks[row["day"], default: MarkCounts()].duplicate += count
            }
        }
        return marks
    }
}

extension Anomaly {
    /// The period a divergence names in its evidence ("2000-01-01 – 2000-01-14").
    var namedWindow: DayRange? {
        guard let window = evidence["recentWindow"] else { return nil }
        let ends = window.components(separatedBy: " – ")
        guard ends.count == 2 else { return nil }
        return DayRange(from: ends[0], to: ends[1])
    }
}

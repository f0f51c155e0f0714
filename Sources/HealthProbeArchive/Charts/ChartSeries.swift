import Foundation
internal import GRDB

/// Records per local day of one sample type as the archive holds them now, with the records
/// HealthProbe found vanished (silent deletions), backfilled (historical insertions) and surplus
/// (duplicates and source overlaps) on each day: the numbers behind the per-type charts. Days are
/// those of one zone (the user's, as every face's), counted from the records by quarter hour
/// (``HeldRecords``) and the anomalies' links.
public struct DailyRecordSeries: Sendable, Equatable, Codable {
    /// One mark: `daysPerMark` days from `day`.
    public struct Day: Sendable, Equatable, Codable {
        /// Local days since 1970-01-01 in the series' zone.
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
    /// The IANA zone whose local days these are.
    public var timeZone: String
    /// Every mark of the period, oldest first.
    public var days: [Day]

    public init(
        type: String, captureID: Int64?, range: DayRange? = nil, daysPerMark: Int = 1, dataSpan: DayRange? = nil,
        anomalyID: Int64? = nil, timeZone: String, days: [Day]
    ) {
        self.type = type
        self.captureID = captureID
        self.range = range ?? days.first.map { DayRange(first: $0.day, last: days.last?.day ?? $0.day) }
        self.daysPerMark = daysPerMark
        self.dataSpan = dataSpan ?? self.range
        self.anomalyID = anomalyID
        self.timeZone = timeZone
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
    /// The zone whose local days are shown (``ArchiveStore/dayZone()`` for the user's).
    public var zone: TimeZone
    /// The most marks the chart has room for: a longer range is shown in whole weeks a mark.
    public var maximumMarks: Int

    public static let defaultDayCount = 60

    public init(type: String, range: DayRange? = nil, anomalyID: Int64? = nil, zone: TimeZone, maximumMarks: Int) {
        self.type = type
        self.range = range
        self.anomalyID = anomalyID
        self.zone = zone
        self.maximumMarks = maximumMarks
    }
}

extension ArchiveStore {
    public func fetchDailySeries(_ request: DailySeriesRequest) throws -> DailyRecordSeries {
        try read { db in
            var local = LocalDays(zone: request.zone)
            let capture = try LatestCapture.id(db)
            let held = try capture.map { try HeldRecords(db, latest: $0, type: request.type) }
            let marks = try Self.anomalyMarks(db, type: request.type, anomalyID: request.anomalyID, days: &local)
            var span = marks.keys.min().map { DayRange(first: $0, last: marks.keys.max() ?? $0) }
            if let found = try held?.span(&local) {
                span = DayRange(
                    first: min(found.first, span?.first ?? found.first), last: max(found.last, span?.last ?? found.last)
                )
            }
            guard let span else {
                return DailyRecordSeries(
                    type: request.type, captureID: capture, anomalyID: request.anomalyID,
                    timeZone: request.zone.identifier, days: [])
            }
            let range = request.range ?? .ending(at: span.last, count: DailySeriesRequest.defaultDayCount)
            let perMark = ChartBinning.daysPerMark(for: range, maximumMarks: request.maximumMarks)
            var days = Dictionary(
                uniqueKeysWithValues: ChartBinning.markStarts(in: range, daysPerMark: perMark).map {
                    ($0, DailyRecordSeries.Day(day: $0, records: 0, vanished: 0, backfilled: 0))
                })
            func add(_ day: Int64, _ change: (inout DailyRecordSeries.Day) -> Void) {
                guard range.contains(day) else { return }
                change(&days[ChartBinning.markStart(of: day, in: range, daysPerMark: perMark)]!)
            }
            for (day, count) in try held?.counts(in: range, &local) ?? [:] {
                add(day) { $0.records += count }
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
                anomalyID: request.anomalyID, timeZone: request.zone.identifier,
                days: days.values.sorted { $0.day < $1.day })
        }
    }

    /// Records of `type` that vanished and are still gone, by the local day of `zone` they
    /// started on, over `range`: the losses of a chart without its held records, which are the
    /// time of a long period.
    public func fetchVanishedPerDay(type: String, range: DayRange, zone: TimeZone) throws -> [Int64: Int] {
        try read { db in
            var local = LocalDays(zone: zone)
            return try Self.anomalyMarks(db, type: type, anomalyID: nil, days: &local)
                .filter { range.contains($0.key) && $0.value.vanished > 0 }.mapValues(\.vanished)
        }
    }

    /// Exactly the local days of `zone` an anomaly's records start on (not every day between the
    /// first and the last), or the days of the window a divergence names. Read by quarter hours
    /// (every zone's offset is a whole number of them), so a loss of a million records is a few
    /// thousand rows.
    public func fetchAnomalyDaySet(id: Int64, zone: TimeZone) throws -> Set<Int64> {
        try read { db in
            let quarters = try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT \(LocalQuarters.sql("r.startDate"))
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
            return Set(quarters.map { days.day(ofQuarter: $0) })
        }
    }

    /// The local days of `zone` an anomaly is about, from its records' first start day to their
    /// last, or the window a divergence names; nil when it names none.
    public func fetchAnomalyDays(id: Int64, zone: TimeZone) throws -> DayRange? {
        try read { db in
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT MIN(r.startDate) AS first, MAX(r.startDate) AS last
                    FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                    WHERE l.anomalyId = ? AND r.startDate IS NOT NULL
                    """, arguments: [id]),
                let first: Double = row["first"], let last: Double = row["last"]
            {
                var days = LocalDays(zone: zone)
                return DayRange(first: days.day(of: first), last: days.day(of: last))
            }
            return try Anomaly.fetchOne(db, sql: "SELECT * FROM anomaly WHERE id = ?", arguments: [id])?.namedWindow
        }
    }

    struct MarkCounts {
        var vanished = 0
        var backfilled = 0
        var duplicate = 0
    }

    /// Records the anomalies of `type` (or the one given) are about, by local start day and kind.
    /// The joins run in the order written (`CROSS JOIN`): from the type's few anomalies to their
    /// links by key, rather than through every link in the archive.
    static func anomalyMarks(
        _ db: Database, type: String, anomalyID: Int64?, days: inout LocalDays
    ) throws -> [Int64: MarkCounts] {
        var marks: [Int64: MarkCounts] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.role AS role, \(LocalQuarters.sql("r.startDate")) AS quarter, COUNT(*) AS n
                FROM anomaly AS a
                CROSS JOIN anomalyRecord AS l ON l.anomalyId = a.id
                CROSS JOIN record AS r ON r.id = l.recordId
                WHERE a.sampleType = ? AND (? IS NULL OR a.id = ?) AND a.withdrawnAt IS NULL
                    AND l.role IN ('vanished', 'inserted', 'surplus') AND r.startDate IS NOT NULL
                    AND (l.role <> 'vanished' OR r.goneCapture IS NOT NULL)
                GROUP BY l.role, quarter
                """, arguments: [type, anomalyID, anomalyID])
        while let row = try rows.next() {
            let count: Int = row["n"]
            let day = days.day(ofQuarter: row["quarter"])
            switch row["role"] as String {
            case "vanished": marks[day, default: MarkCounts()].vanished += count
            case "inserted": marks[day, default: MarkCounts()].backfilled += count
            default: marks[day, default: MarkCounts()].duplicate += count
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

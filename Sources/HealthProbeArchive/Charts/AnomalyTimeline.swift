import Foundation
internal import GRDB

/// Anomalies by the local days they are about — their records' days, or the window a divergence
/// names — by severity: the dashboard's anomalies-over-time chart. An anomaly counts once in each
/// mark it touches.
public struct AnomalyTimeline: Sendable, Equatable, Codable {
    public struct Day: Sendable, Equatable, Codable {
        public var day: Int64
        public var counts: [Severity: Int]

        public var date: String { UTCText.day(day) }
        public var total: Int { counts.values.reduce(0, +) }
    }

    /// The period shown; nil when there is no anomaly.
    public var range: DayRange?
    public var daysPerMark: Int
    /// The IANA zone whose local days these are.
    public var timeZone: String
    /// Every mark of the period, oldest first.
    public var days: [Day]

    public init(range: DayRange? = nil, daysPerMark: Int = 1, timeZone: String, days: [Day]) {
        self.range = range ?? days.first.map { DayRange(first: $0.day, last: days.last?.day ?? $0.day) }
        self.daysPerMark = daysPerMark
        self.timeZone = timeZone
        self.days = days
    }
}

extension ArchiveStore {
    /// Anomalies over `range` (local days of `zone`), or over every day any anomaly is about when
    /// nil, in at most `maximumMarks` marks (whole weeks a mark when the range is longer).
    public func fetchAnomalyTimeline(range requested: DayRange?, zone: TimeZone, maximumMarks: Int) throws
        -> AnomalyTimeline
    {
        try read { db in
            var local = LocalDays(zone: zone)
            var severities: [Int64: Severity] = [:]
            var affected: [Int64: Set<Int64>] = [:]
            for anomaly in try Anomaly.fetchAll(db, sql: "SELECT * FROM anomaly WHERE withdrawnAt IS NULL") {
                severities[anomaly.id] = anomaly.severity
                if let window = anomaly.namedWindow { affected[anomaly.id] = Set(window.first...window.last) }
            }
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT DISTINCT l.anomalyId AS anomaly, \(LocalQuarters.sql("r.startDate")) AS quarter
                    FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                    WHERE r.startDate IS NOT NULL
                    """)
            // A withdrawn anomaly (its capture set aside) marks no day.
            while let row = try rows.next() {
                let anomaly: Int64 = row["anomaly"]
                if severities[anomaly] != nil {
                    affected[anomaly, default: []].insert(local.day(ofQuarter: row["quarter"]))
                }
            }
            let firsts = affected.values.compactMap { $0.min() }
            let lasts = affected.values.compactMap { $0.max() }
            guard let range = requested ?? firsts.min().map({ DayRange(first: $0, last: lasts.max() ?? $0) })
            else { return AnomalyTimeline(timeZone: zone.identifier, days: []) }
            let perMark = ChartBinning.daysPerMark(for: range, maximumMarks: maximumMarks)
            var counts: [Int64: [Severity: Int]] = [:]
            for (anomaly, days) in affected {
                guard let severity = severities[anomaly] else { continue }
                let marks = Set(
                    days.filter(range.contains).map {
                        ChartBinning.markStart(of: $0, in: range, daysPerMark: perMark)
                    })
                for mark in marks { counts[mark, default: [:]][severity, default: 0] += 1 }
            }
            return AnomalyTimeline(
                range: range, daysPerMark: perMark, timeZone: zone.identifier,
                days: ChartBinning.markStarts(in: range, daysPerMark: perMark).map {
                    AnomalyTimeline.Day(day: $0, counts: counts[$0] ?? [:])
                })
        }
    }
}

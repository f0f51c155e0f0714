import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// The records chart, the anomalies chart and a comparison by day count the local days of the
/// chosen zone, as the day figures do: each held record on the day its start falls on there, each
/// vanished one on its own day. Checked against the records themselves, their days worked out here
/// with Foundation's calendar; Kiritimati (+14) and Los Angeles (−8, −7 in summer) put many
/// records on other days than UTC does.
@Suite("Charts in local days")
struct LocalDayChartTests {
    let archive: AuditedArchive
    let store: ArchiveStore
    let lost: Anomaly

    init() throws {
        archive = try AuditedArchive()
        store = try archive.open()
        lost = try #require(try store.fetchAnomalies().first { $0.type == .silentDeletion })
    }

    static func counts(_ instants: [Double], in zone: TimeZone) -> [Int64: Int] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var counts: [Int64: Int] = [:]
        for instant in instants {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: instant))
            let day = DayRange.day(String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))!
            counts[day, default: 0] += 1
        }
        return counts
    }

    func instants(_ condition: String) throws -> [Double] {
        try ArchiveInspection.strings(
            archive.path,
            "SELECT startDate FROM record WHERE type = '\(lost.sampleType)' AND startDate IS NOT NULL AND \(condition)"
        ).compactMap(Double.init)
    }

    @Test(arguments: ["Pacific/Kiritimati", "America/Los_Angeles", "UTC"])
    func eachDaysBarsAreTheRecordsOfThatLocalDay(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let held = Self.counts(try instants("goneCapture IS NULL"), in: zone)
        var vanished: [Int64: Int] = [:]
        for anomaly in try store.fetchAnomalies()
        where anomaly.type == .silentDeletion && anomaly.sampleType == lost.sampleType {
            let report = try #require(
                try store.exportReport(anomalyID: anomaly.id, includeValues: false, limit: 100_000))
            let starts = report.records.filter { $0.role == "vanished" }.compactMap(\.startDate)
            vanished.merge(Self.counts(starts, in: zone), uniquingKeysWith: +)
        }
        let days = Set(held.keys).union(vanished.keys)
        let span = DayRange(first: try #require(days.min()), last: try #require(days.max()))
        #expect(span.count <= 366, "one mark a day")
        let series = try store.fetchDailySeries(
            DailySeriesRequest(type: lost.sampleType, range: span, zone: zone, maximumMarks: 366))
        #expect(series.timeZone == zone.identifier)
        #expect(series.days.count == span.count)
        for day in series.days {
            #expect(day.records == held[day.day] ?? 0, "\(day.date) held, \(zoneName)")
            #expect(day.vanished == vanished[day.day] ?? 0, "\(day.date) vanished, \(zoneName)")
        }
        // Asked for no period, the chart ends on the last local day with anything to show.
        let latest = try store.fetchDailySeries(
            DailySeriesRequest(type: lost.sampleType, zone: zone, maximumMarks: 366))
        #expect(latest.range?.last == span.last)
        // The anomalies chart marks the lost records' local days.
        let timeline = try store.fetchAnomalyTimeline(range: span, zone: zone, maximumMarks: 366)
        for (day, _) in vanished {
            #expect(
                timeline.days.first { $0.day == day }.map {
                    $0.counts[.critical, default: 0] + $0.counts[.warning, default: 0] + $0.counts[.info, default: 0]
                } ?? 0 >= 1)
        }
    }

    @Test(arguments: ["Pacific/Kiritimati", "America/Los_Angeles"])
    func aComparisonByDayCountsLocalDays(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let captures = try store.fetchCaptures().map(\.id).sorted()
        let comparison = try #require(
            try store.compareCaptures(from: captures[0], to: captures[1], byDayOf: lost.sampleType, zone: zone))
        #expect(comparison.timeZone == zone.identifier)
        let gone = Self.counts(try instants("goneCapture = \(captures[1])"), in: zone)
        let new = Self.counts(try instants("firstSeenCapture = \(captures[1])"), in: zone)
        let expected = Set(gone.keys).union(new.keys).sorted().map {
            CaptureComparison.Change(key: UTCText.day($0), new: new[$0] ?? 0, gone: gone[$0] ?? 0)
        }
        #expect(comparison.changes == expected)
        let utc = try #require(
            try store.compareCaptures(
                from: captures[0], to: captures[1], byDayOf: lost.sampleType, zone: TimeZone(identifier: "UTC")!))
        #expect(utc.changes != comparison.changes, "\(zoneName) puts some changes on other days than UTC")
        #expect(utc.totalGone == comparison.totalGone)
    }
}

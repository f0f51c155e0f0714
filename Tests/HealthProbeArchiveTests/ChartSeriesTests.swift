import Foundation
import Testing

@testable import HealthProbeArchive

/// The charts' numbers: each anomaly's records where they happened, any period, long periods in
/// whole weeks, anomalies on the days they are about.
@Suite("Chart series")
struct ChartSeriesTests {
    let store: ArchiveStore
    let anomalies: [Anomaly]
    let utc = TimeZone(identifier: "UTC")!
    /// A chart with room for a year of days, as the screens' charts.
    let room = 366

    init() throws {
        store = try FedArchive.audited().store
        anomalies = try store.fetchAnomalies()
    }

    static func total(_ series: DailyRecordSeries, _ count: KeyPath<DailyRecordSeries.Day, Int>) -> Int {
        series.days.reduce(0) { $0 + $1[keyPath: count] }
    }

    @Test func eachAnomalysChartMarksExactlyItsRecords() throws {
        let marked: [AnomalyType: KeyPath<DailyRecordSeries.Day, Int>] = [
            .silentDeletion: \.vanished, .historicalInsertion: \.backfilled, .duplicate: \.duplicate,
            .sourceOverlap: \.duplicate,
        ]
        var checked = 0
        for anomaly in anomalies {
            guard let kind = marked[anomaly.type] else { continue }
            let days = try #require(try store.fetchAnomalyDays(id: anomaly.id, zone: utc))
            let series = try store.fetchDailySeries(
                DailySeriesRequest(
                    type: anomaly.sampleType, range: days, anomalyID: anomaly.id, zone: utc, maximumMarks: room))
            #expect(Self.total(series, kind) == anomaly.recordCount, "anomaly \(anomaly.id), \(anomaly.type)")
            for other in marked.values where other != kind { #expect(Self.total(series, other) == 0) }
            checked += 1
        }
        #expect(checked >= 2, "the archive has vanished and surplus records to draw")
    }

    @Test func theTypeChartOverAllItsDaysShowsEveryAnomalysRecords() throws {
        let lost = try #require(anomalies.first { $0.type == .silentDeletion })
        let latest = try store.fetchDailySeries(
            DailySeriesRequest(type: lost.sampleType, zone: utc, maximumMarks: room))
        let span = try #require(latest.dataSpan)
        #expect(latest.range?.count == DailySeriesRequest.defaultDayCount)
        #expect(latest.range?.last == span.last)
        let all = try store.fetchDailySeries(
            DailySeriesRequest(type: lost.sampleType, range: span, zone: utc, maximumMarks: room))
        let vanished = anomalies.filter { $0.type == .silentDeletion && $0.sampleType == lost.sampleType }
        #expect(Self.total(all, \.vanished) == vanished.reduce(0) { $0 + $1.recordCount })
        let held = try #require(try store.fetchOverview().types.first { $0.type == lost.sampleType })
        #expect(Self.total(all, \.records) == held.records)
        // Over eight years, marks of two whole weeks that hold the same numbers.
        let long = DayRange(first: span.last - 8 * 365, last: span.last)
        let weekly = try store.fetchDailySeries(
            DailySeriesRequest(type: lost.sampleType, range: long, zone: utc, maximumMarks: room))
        #expect(weekly.daysPerMark == 14)
        #expect(weekly.days.count <= room)
        #expect(weekly.days.count == (long.count + 13) / 14)
        #expect(Self.total(weekly, \.records) == Self.total(all, \.records))
        #expect(Self.total(weekly, \.vanished) == Self.total(all, \.vanished))
    }

    @Test func anomaliesCountOnTheDaysTheyAreAbout() throws {
        let timeline = try store.fetchAnomalyTimeline(range: nil, zone: utc, maximumMarks: room)
        let spans = try anomalies.map { try #require(try store.fetchAnomalyDays(id: $0.id, zone: utc)) }
        #expect(timeline.range?.first == spans.map(\.first).min())
        #expect(timeline.range?.last == spans.map(\.last).max())
        for (anomaly, span) in zip(anomalies, spans) {
            let onFirstDay = timeline.days.first { $0.day == span.first }
            #expect((onFirstDay?.counts[anomaly.severity] ?? 0) >= 1, "anomaly \(anomaly.id) on its first day")
        }
        for day in timeline.days where !spans.contains(where: { $0.contains(day.day) }) {
            #expect(day.total == 0, "\(day.date) is no anomaly's day")
        }
        #expect(timeline.days.allSatisfy { $0.total <= anomalies.count })
    }

    @Test func periodsAreTwoRealDatesAtMostACenturyApart() {
        #expect(DayRange(from: "2000-03-01", to: "2000-01-01") == DayRange(first: 10_957, last: 11_017))
        #expect(DayRange(from: "2000-02-29", to: "2000-02-29")?.count == 1)
        #expect(DayRange(from: "2001-02-29", to: "2001-03-01") == nil)
        #expect(DayRange(from: "2000-1-01", to: "2000-01-02") == nil)
        #expect(DayRange(from: "2000-01-01", to: "2100-01-02") == nil)
        #expect(DayRange(from: "２０００-01-01", to: "2000-01-02") == nil)
        #expect(ChartBinning.daysPerMark(for: DayRange(first: 0, last: 365), maximumMarks: room) == 1)
        #expect(ChartBinning.daysPerMark(for: DayRange(first: 0, last: 366), maximumMarks: room) == 7)
        // A narrower chart (the face says how many marks fit): whole weeks, then two weeks a mark.
        #expect(ChartBinning.daysPerMark(for: DayRange(first: 0, last: 49), maximumMarks: 50) == 1)
        #expect(ChartBinning.daysPerMark(for: DayRange(first: 0, last: 50), maximumMarks: 50) == 7)
        #expect(ChartBinning.daysPerMark(for: DayRange(first: 0, last: 350), maximumMarks: 50) == 14)
    }
}

import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit
@testable import HealthProbeWeb

/// The records chart as drawn: one scale for every kind of mark, each mark readable by tools.
@Suite("Charts")
struct SVGChartTests {
    struct Mark {
        var day: String
        var kind: String
        var count: Int
        var height: Double
    }

    static func marks(_ svg: String) -> [Mark] {
        svg.matches(of: /height="([0-9.]+)" data-day="([0-9-]+)" data-kind="([a-z]+)" data-count="([0-9]+)"/).map {
            Mark(day: String($0.2), kind: String($0.3), count: Int($0.4)!, height: Double($0.1)!)
        }
    }

    @Test func vanishedBackfilledAndHeldRecordsShareOneScale() {
        let series = DailyRecordSeries(
            type: "HKQuantityTypeIdentifierHeartRate", captureID: 2, timeZone: "Europe/Berlin",
            days: [
                .init(day: 10_957, records: 156, vanished: 0, backfilled: 0),
                .init(day: 10_958, records: 0, vanished: 20, backfilled: 0),
                .init(day: 10_959, records: 40, vanished: 0, backfilled: 10),
            ])
        let svg = SVGChart.records(series, typeName: "heart rate", format: .utc)
        let marks = Self.marks(svg)
        #expect(marks.map(\.kind).sorted() == ["backfilled", "held", "held", "vanished"])
        #expect(marks.first { $0.kind == "vanished" }?.day == "2000-01-02")
        #expect(marks.first { $0.kind == "vanished" }?.count == 20)
        #expect(marks.first { $0.kind == "backfilled" }?.count == 10)
        // A record is as tall whatever its kind: 160 px for the day of 156.
        let perRecord = marks.map { $0.height / Double($0.count) }
        #expect(perRecord.allSatisfy { abs($0 - 160.0 / 156) < 0.01 })
        #expect(svg.contains(">−20 vanished</p>"))
        // The days are the zone's, and say so.
        #expect(svg.contains("2000-01-01 to 2000-01-03 (Europe/Berlin)"))
        #expect(svg.contains("Day (Europe/Berlin)</th>"))
    }
}

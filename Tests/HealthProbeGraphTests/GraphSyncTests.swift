import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import Testing

@testable import HealthProbeGraph

/// Graph sync into a real FalkorDB, from archives filled by checks of hand-written exports whose
/// daily values are worked out by hand here.
@Suite("Graph sync")
struct GraphSyncTests {
    /// One DailySummary's properties by name, as FalkorDB returns them.
    static func summary(_ graph: FalkorDBGraph, _ date: String) throws -> [String: String] {
        let result = try graph.run(
            "MATCH (s:DailySummary {date: date($day)}) RETURN keys(s), s", ["day": .string(date)])
        guard let node = result.rows.first?.last, case .array(let parts?) = node else { return [:] }
        var values: [String: String] = [:]
        for part in parts {
            guard case .array(let pair?) = part, pair.count == 2, pair[0].text == "properties",
                case .array(let entries?) = pair[1]
            else { continue }
            for entry in entries {
                if case .array(let keyValue?) = entry, keyValue.count == 2, let key = keyValue[0].text {
                    values[key] = keyValue[1].text
                }
            }
        }
        return values
    }

    @Test func aFirstSyncWritesEachLocalDayAsWorkedOutByHand() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let engine = archive.engine(server)
        let report = try await archive.sync(engine)
        #expect(report.daysWritten == 4)
        let graph = try server.graph()
        let dump = try GraphDump(graph)

        // Days with data: the 1st, the 2nd (the night, and a heart rate written in Los Angeles,
        // where it was still the 1st: the sync's zone decides, as in every face), the 4th and the 5th.
        let days = try graph.run("MATCH (d:Day) RETURN toString(d.date), d.day_of_week ORDER BY d.date").rows
        #expect(days.map { $0[0].text ?? "" } == ["2000-01-01", "2000-01-02", "2000-01-04", "2000-01-05"])
        #expect(days.map { $0[1].text ?? "" } == ["Saturday", "Sunday", "Tuesday", "Wednesday"])
        #expect(dump.count("DailySummary") == 4)
        #expect(dump.count("Week") == 2)
        #expect(dump.count("SleepSession") == 2)
        #expect(dump.count("Workout") == 2)
        #expect(dump.count("Person") == 1)
        #expect(dump.count("Device") == 2)
        #expect(dump.count("MetricType") == SummaryMetric.sampleTypes.count)
        #expect(dump.count("Sync") == 1)
        #expect(dump.count(relationship: "PART_OF") == 4)
        #expect(dump.count(relationship: "HAS_SUMMARY") == 4)
        #expect(dump.count(relationship: "NEXT_DAY") == 3)
        #expect(dump.count(relationship: "ON_DAY") == 4)
        #expect(dump.count(relationship: "RECORDED") == 2)
        #expect(dump.count(relationship: "USES") == 2)
        #expect(dump.count(relationship: "FOLLOWED_BY") == 1)
        #expect(dump.relationships.contains("Day | 2000-01-02 | NEXT_DAY | null | Day | 2000-01-04"))

        // 2000-01-01 is in ISO week 52 of 1999, which began on Monday 1999-12-27.
        let week = try graph.run(
            "MATCH (:Day {date: date('2000-01-01')})-[:PART_OF]->(w:Week) RETURN w.iso, w.year, w.week_number, toString(w.start_date)"
        ).rows
        #expect(week.first?.map { $0.text ?? "" } == ["1999-W52", "1999", "52", "1999-12-27"])

        let first = try Self.summary(graph, "2000-01-01")
        #expect(first["avg_heart_rate"] == "70")  // 60 (Watch and iPhone, once) and 80
        #expect(first["min_heart_rate"] == "60")
        #expect(first["max_heart_rate"] == "80")
        #expect(first["total_steps"] == "1700")  // 1000 twice once, 500, 200 twice once
        #expect(first["total_distance_km"] == "2.11")  // 1 mi + 500 m
        #expect(first["active_energy_kcal"] == "200")  // 100 kcal + 418.4 kJ
        #expect(first["body_mass_kg"] == "69.9")  // the last reading: 154 lb
        #expect(first["avg_blood_oxygen"] == "96")  // 0.97 and 0.95 as percentages
        #expect(first["exercise_minutes"] == "45")
        #expect(first["stand_hours"] == "3")
        #expect(first["sleep_hours"] == "3")  // core 2 h and deep 1 h; awake and in bed are not sleep
        #expect(first["workout_count"] == "1")
        #expect(first["workout_minutes"] == "30")
        #expect(first["resting_heart_rate"] == nil)

        let second = try Self.summary(graph, "2000-01-02")
        #expect(second["avg_heart_rate"] == "90")
        #expect(second["sleep_hours"] == "2")
        #expect(second["workout_count"] == "0")

        let rings = try graph.run(
            "MATCH (d:Day {date: date('2000-01-01')}) RETURN d.ring_move, d.ring_move_goal, d.ring_exercise, d.ring_stand_goal"
        ).rows
        #expect(rings.first?.map { $0.text ?? "" } == ["450", "500", "45", "12"])
        let sleep = try graph.run(
            "MATCH (s:SleepSession {date: date('2000-01-01')})-[:ON_DAY]->(:Day) RETURN s.asleep_minutes, s.in_bed_minutes, s.source_name"
        ).rows
        #expect(sleep.first?.map { $0.text ?? "" } == ["180", "315", "Test User\u{2019}s Apple Watch"])
        let running = try graph.run(
            """
            MATCH (dev:Device)-[:RECORDED]->(w:Workout {activity_type: 'Running'})-[f:FOLLOWED_BY]->(s:SleepSession)
            RETURN dev.name, w.raw_type, w.duration_min, w.total_distance, w.total_distance_unit, w.start_date,
                f.hours_between, toString(s.date)
            """
        ).rows
        #expect(
            running.first?.map { $0.text ?? "" } == [
                "Apple Watch", "HKWorkoutActivityTypeRunning", "30", "5", "km", "2000-01-01T18:00:00+00:00", "4.5",
                "2000-01-02",
            ])
    }

    @Test func aSecondSyncWithNothingChangedWritesNothing() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let engine = archive.engine(server)
        try await archive.sync(engine)
        let before = try GraphDump(server.graph())
        // The same export checked again: the archive learns nothing new.
        try archive.check(GraphExports.first(), named: "again.xml")
        let plan = try archive.plan(engine)
        #expect(plan.isEmpty)
        let again = try await GraphSyncRunner.run(plan, on: engine, store: archive.store)
        #expect(again.counters == GraphCounters())
        #expect(again.statements == 0)
        #expect(try GraphDump(server.graph()) == before)
    }

    @Test func aFullSyncRestoresAGraphEmptiedSinceItsLastSync() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let engine = archive.engine(server)
        try await archive.sync(engine)
        let graph = try server.graph()
        let synced = try GraphDump(graph)
        try graph.run("MATCH (n) DETACH DELETE n")
        #expect(try archive.plan(engine).isEmpty)
        let full = try GraphSyncPlanner.plan(
            archive.store, destination: engine.destination, timeZone: GraphArchive.utc, full: true,
            now: GraphArchive.syncTime)
        #expect(full.isFirst)
        #expect(full.changedDays == nil)
        #expect(try await GraphSyncRunner.dryRun(full).changedDays.count == 4)
        _ = try await GraphSyncRunner.run(full, on: engine, store: archive.store)
        // The same graph, but for the Sync node: the first went with the rest, the second is new.
        var restored = try GraphDump(graph)
        #expect(restored.count("Sync") == 1)
        restored.nodes.removeAll { $0.hasPrefix("Sync {") }
        var expected = synced
        expected.nodes.removeAll { $0.hasPrefix("Sync {") }
        #expect(restored == expected)
    }
}

/// The graph's discrete metrics are the day figures' (docs/DESIGN.md §8a): on an export where the
/// band app writes a Watch heart rate back, each day's mean, lowest and highest in the graph equal
/// what `healthprobe day` gives, in the same zone, the written-back reading once.
@Suite("Graph sync: discrete metrics from the day figures")
struct GraphDiscreteMetricsTests {
    @Test func heartRateMeanLowestAndHighestEqualTheDayFigures() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        let export = archive.folder.appendingPathComponent("multi.xml")
        try MultiSourceExport().write(to: export)
        _ = try AppleExportImporter(store: archive.store).importExport(AppleExportReader(url: export))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let engine = archive.engine(server, graph: "discrete")
        try await archive.sync(engine, zone: berlin)
        let graph = try server.graph("discrete")
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        // 2000-03-20 … 2000-04-02, as days since 1970-01-01: the export's fourteen days.
        let figures = try archive.store.dayFigures(types: [heartRate], days: 11_036...11_049, zone: berlin)
        #expect(figures.count == 14)
        for figure in figures {
            let summary = try GraphSyncTests.summary(graph, UTCText.day(figure.day))
            #expect(figure.copies == 1, "the band's written-back reading, once")
            for (property, value) in [
                ("avg_heart_rate", figure.value), ("min_heart_rate", figure.minimum),
                ("max_heart_rate", figure.maximum),
            ] {
                let shown = try #require(summary[property].flatMap(Double.init), "\(property) on \(figure.day)")
                // Rounded as the graph rounds each property (as HealthGraphSync did).
                let metric = try #require(SummaryMetric.all.first { $0.property == property })
                let expected: Double
                switch metric.rounded(try #require(value)) {
                case .float(let number): expected = number
                case .integer(let number): expected = Double(number)
                default: expected = .nan
                }
                #expect(shown == expected, "\(property) on \(UTCText.day(figure.day))")
            }
        }
    }
}

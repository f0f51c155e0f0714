import Foundation
import Testing

@testable import HealthProbeGraph

/// The patterns HealthGraphSync's NeoDash dashboards query (docs/GRAPH.md §2) run on the graph a sync
/// writes and give the figures worked out by hand. FalkorDB takes `round` with one argument only,
/// so the dashboards' `round(x, 1)` is left out here.
@Suite("Dashboard queries")
struct DashboardQueryTests {
    @Test func theDashboardsQueriesFindWhatTheExportHolds() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        try await archive.sync(archive.engine(server))
        let graph = try server.graph()
        func table(_ query: String) throws -> [[String]] {
            try graph.run(query).rows.map { $0.map { $0.text ?? "null" } }
        }

        // Daily steps, weekly: the average over the days that have steps.
        #expect(
            try table(
                """
                MATCH (d:Day)-[:PART_OF]->(w:Week) MATCH (d)-[:HAS_SUMMARY]->(s:DailySummary)
                WHERE s.total_steps IS NOT NULL
                RETURN toString(w.start_date) AS week, avg(s.total_steps) ORDER BY week
                """) == [["1999-12-27", "1700"], ["2000-01-03", "350"]])

        // Monthly workout volume, grouped by the date's year and month.
        #expect(
            try table(
                """
                MATCH (d:Day)-[:HAS_SUMMARY]->(s:DailySummary)
                WITH d.date.year AS year, d.date.month AS month, s
                RETURN year, month, sum(s.workout_minutes), sum(s.workout_count), count(*)
                """) == [["2000", "1", "90", "2", "4"]])

        // Rest days (no workout) and the day before each through NEXT_DAY.
        #expect(
            try table(
                """
                MATCH (d:Day)-[:HAS_SUMMARY]->(s:DailySummary) WHERE s.workout_count = 0
                OPTIONAL MATCH (previous:Day)-[:NEXT_DAY]->(d)
                OPTIONAL MATCH (previous)-[:HAS_SUMMARY]->(p:DailySummary)
                RETURN toString(d.date), p.workout_count ORDER BY d.date
                """) == [["2000-01-02", "1"], ["2000-01-05", "1"]])

        // A workout and the next day with data, through ON_DAY and NEXT_DAY.
        #expect(
            try table(
                """
                MATCH (w:Workout)-[:ON_DAY]->(d1:Day)-[:NEXT_DAY]->(d2:Day)-[:HAS_SUMMARY]->(s2:DailySummary)
                RETURN w.activity_type, toString(d2.date), s2.avg_heart_rate ORDER BY w.activity_type
                """) == [["Cycling", "2000-01-05", "70"], ["Running", "2000-01-02", "90"]])

        // Sleep by date, as the sleep page joins it.
        #expect(
            try table(
                """
                MATCH (d:Day) MATCH (s:SleepSession {date: d.date})
                RETURN toString(d.date), s.asleep_minutes ORDER BY d.date
                """) == [["2000-01-01", "180"], ["2000-01-02", "120"]])

        // A 30-day window by date arithmetic, as the z-score page computes its baseline.
        #expect(
            try table(
                """
                MATCH (x:DailySummary {date: date('2000-01-05')})
                MATCH (s:DailySummary) WHERE s.date >= x.date - duration({days: 30}) AND s.date < x.date
                RETURN count(s), sum(s.total_steps)
                """) == [["3", "2000"]])
    }
}

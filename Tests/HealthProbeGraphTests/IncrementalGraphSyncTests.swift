import Foundation
import GRDB
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeGraph
@testable import HealthProbeKit

/// Later syncs: exactly the days whose records changed are rewritten, deletions included, and a
/// sync cut off half-way is simply run again.
@Suite("Graph sync, incremental")
struct IncrementalGraphSyncTests {
    @Test func aCheckThatFoundLossesBackfillAndAReplacedWorkoutRewritesExactlyThoseDays() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let engine = archive.engine(server)
        try await archive.sync(engine)
        try archive.check(GraphExports.second, named: "second.xml")

        let plan = try archive.plan(engine)
        // The backfill's day, the workout's day, the day that lost everything; not the 2nd.
        #expect(plan.changedDays?.map(\.description) == ["2000-01-01", "2000-01-04", "2000-01-05"])
        let dry = try await GraphSyncRunner.dryRun(plan)
        #expect(dry.changedDays.filter { !$0.value }.keys.map(\.description) == ["2000-01-05"])
        #expect(dry.daysWritten == 2 && dry.daysRemoved == 1)
        let report = try await GraphSyncRunner.run(plan, on: engine, store: archive.store)
        #expect(report.daysWritten == 2)
        #expect(report.daysRemoved == 1)

        let graph = try server.graph()
        let first = try GraphSyncTests.summary(graph, "2000-01-01")
        #expect(first["total_steps"] == "1750")
        #expect(try GraphSyncTests.summary(graph, "2000-01-05").isEmpty)
        let days = try graph.run("MATCH (d:Day)-[:HAS_SUMMARY]->() RETURN toString(d.date) ORDER BY d.date").rows
        #expect(days.map { $0[0].text ?? "" } == ["2000-01-01", "2000-01-02", "2000-01-04"])
        let chain = try graph.run(
            "MATCH (a:Day)-[:NEXT_DAY]->(b:Day) RETURN toString(a.date), toString(b.date) ORDER BY a.date"
        ).rows
        #expect(
            chain.map { "\($0[0].text ?? "")>\($0[1].text ?? "")" } == [
                "2000-01-01>2000-01-02", "2000-01-02>2000-01-04",
            ])

        // The cycling workout is one node, the rewritten one.
        let cycling = try graph.run(
            "MATCH (w:Workout {activity_type: 'Cycling'})-[:ON_DAY]->(d:Day) RETURN w.duration_min, toString(d.date)"
        ).rows
        #expect(cycling.map { $0.map { $0.text ?? "" } } == [["70", "2000-01-04"]])
        #expect(try graph.run("MATCH (w:Workout) RETURN count(w)").rows.first?.first == .integer(2))

        // Every anomaly is in the graph, linked to its type and to the local days of its records.
        let anomalies = try archive.store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, type, sampleType FROM anomaly ORDER BY id")
        }
        #expect(!anomalies.isEmpty)
        for anomaly in anomalies {
            let id: Int64 = anomaly["id"]
            let expected = try await archive.store.writer.read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT date(record.startDate, 'unixepoch') FROM anomalyRecord
                        JOIN record ON record.id = anomalyRecord.recordId WHERE anomalyId = ? ORDER BY 1
                        """, arguments: [id])
            }
            let linked = try graph.run(
                """
                MATCH (m:MetricType)<-[:OF_TYPE]-(a:Anomaly {id: $id})-[:AFFECTS]->(d:Day)
                RETURN toString(d.date), a.type, m.identifier ORDER BY d.date
                """, ["id": .integer(id)]
            ).rows
            #expect(linked.map { $0[0].text ?? "" } == expected, "anomaly \(id) \(anomaly["type"] as String)")
            #expect(linked.allSatisfy { $0[2].text == anomaly["sampleType"] })
        }
        let silent = anomalies.filter { ($0["type"] as String) == "silent_deletion" }
        #expect(!silent.isEmpty)

        // The emptied 5th stays a Day only because the loss points at it; the sync is recorded.
        let fifth = try graph.run(
            "MATCH (d:Day {date: date('2000-01-05')}) OPTIONAL MATCH (d)-[n:NEXT_DAY]-() RETURN count(d), count(n)"
        ).rows
        #expect(fifth.first == [.integer(1), .integer(0)])
        let syncs = try graph.run("MATCH (s:Sync) RETURN s.id, s.days_written, s.days_removed ORDER BY s.id").rows
        #expect(syncs.map { $0.map { $0.text ?? "" } } == [["1", "4", "0"], ["2", "2", "1"]])
    }

    @Test func anotherTimeZoneRewritesEveryDayAndLeavesNoStaleOne() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let angeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        // In Los Angeles the early hours of 2000-01-01 (UTC) are New Year's Eve, the heart rate of
        // the 2nd (05:00 UTC) the evening of the 1st, and the cycling workout of the 4th (07:00
        // UTC) the evening of the 3rd: five days. In UTC: four.
        let first = try await archive.sync(archive.engine(server, graph: "moved"), zone: angeles)
        #expect(first.daysWritten == 5)
        let moved = try await archive.sync(archive.engine(server, graph: "moved"))
        try await archive.sync(archive.engine(server, graph: "fresh"))
        #expect(moved.daysWritten == 4)
        #expect(moved.daysRemoved == 2)
        var movedDump = try GraphDump(server.graph("moved"))
        var freshDump = try GraphDump(server.graph("fresh"))
        movedDump.nodes.removeAll { $0.hasPrefix("Sync {") }
        freshDump.nodes.removeAll { $0.hasPrefix("Sync {") }
        #expect(movedDump == freshDump)
        #expect(!movedDump.nodes.contains { $0.contains("day=1999-12-31") })
    }

    /// An anomaly links exactly the local days of its records, whatever syncs came before: a
    /// sync in Los Angeles and back (plain, or `--full`) leaves the links of one UTC sync.
    @Test(arguments: [false, true])
    func anAnomalyAffectsTheSameDaysAfterTheZoneChangesAndBack(full: Bool) async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        try archive.check(GraphExports.second, named: "second.xml")
        let angeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let moved = archive.engine(server, graph: "moved")
        try await archive.sync(moved)
        try await archive.sync(moved, zone: angeles)
        let angelesLinks = try GraphDump(server.graph("moved")).relationships.filter { $0.contains("AFFECTS") }
        let back = try GraphSyncPlanner.plan(
            archive.store, destination: moved.destination, timeZone: GraphArchive.utc, full: full)
        _ = try await GraphSyncRunner.run(back, on: moved, store: archive.store)
        try await archive.sync(archive.engine(server, graph: "fresh"))
        var movedDump = try GraphDump(server.graph("moved"))
        var freshDump = try GraphDump(server.graph("fresh"))
        movedDump.nodes.removeAll { $0.hasPrefix("Sync {") }
        freshDump.nodes.removeAll { $0.hasPrefix("Sync {") }
        let affects = freshDump.relationships.filter { $0.contains("AFFECTS") }
        #expect(!affects.isEmpty)
        #expect(angelesLinks != affects)
        #expect(movedDump.relationships.filter { $0.contains("AFFECTS") } == affects)
        #expect(movedDump == freshDump)
    }

    @Test func aSyncCutOffHalfWayThenRunAgainYieldsTheGraphOfAnUninterruptedOne() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        try await archive.sync(archive.engine(server, graph: "whole"))
        try await archive.sync(archive.engine(server, graph: "cut"))
        try archive.check(GraphExports.second, named: "second.xml")
        try await archive.sync(archive.engine(server, graph: "whole"))

        let cut = archive.engine(server, graph: "cut")
        let stateBefore = try archive.store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM graphSync WHERE destination = ?", arguments: [cut.destination])
        }
        // One row a statement, cut off after a few statements, then after more.
        for cutAfter in [3, 9] {
            let failing = FailingEngine(cut, failAfter: cutAfter)
            await #expect(throws: GraphSyncError.self) {
                try await archive.sync(failing, batchSize: 1)
            }
            let stateNow = try archive.store.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM graphSync WHERE destination = ?", arguments: [cut.destination])
            }
            #expect(stateNow == stateBefore)
        }
        try await archive.sync(cut)
        #expect(try GraphDump(server.graph("cut")) == GraphDump(server.graph("whole")))
    }
}

/// A real engine whose connection is lost after some statements: a sync cut off half-way.
final class FailingEngine: GraphEngine, @unchecked Sendable {
    let engine: any GraphEngine
    let failAfter: Int

    init(_ engine: any GraphEngine, failAfter: Int) {
        self.engine = engine
        self.failAfter = failAfter
    }

    var destination: String { engine.destination }

    var dayKey: GraphDayKey { engine.dayKey }

    func checkReachable() async throws { try await engine.checkReachable() }

    func prepareSchema() async throws { try await engine.prepareSchema() }

    func begin() async throws -> any GraphTransaction {
        CuttingTransaction(try await engine.begin(), remaining: failAfter)
    }

    struct ConnectionLost: Error {}

    final class CuttingTransaction: GraphTransaction {
        let inner: any GraphTransaction
        var remaining: Int

        init(_ inner: any GraphTransaction, remaining: Int) {
            self.inner = inner
            self.remaining = remaining
        }

        func run(_ statement: String, _ parameters: [String: CypherValue]) async throws -> GraphResult {
            guard remaining > 0 else { throw ConnectionLost() }
            remaining -= 1
            return try await inner.run(statement, parameters)
        }

        func commit() async throws { try await inner.commit() }
        func rollback() async { await inner.rollback() }
    }
}

import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeGraph
@testable import HealthProbeKit

/// A sync reads and writes a month of days at a time, so that memory does not grow with the
/// history; where the months are cut changes nothing in the graph.
@Suite("Graph sync, a month at a time")
struct StreamedGraphSyncTests {
    /// Every day its own month, against every day in one: a first sync, a later one with losses,
    /// a backfill and a replaced workout, a change of time zone (workouts and samples move to the
    /// day before, across the cut) and back. A workout on one day followed by sleep on the next
    /// is linked across the cut.
    @Test func cuttingTheDaysAnywhereWritesTheSameGraph() async throws {
        let server = try LocalFalkorDB()
        let archive = try GraphArchive()
        try archive.check(GraphExports.first(), named: "first.xml")
        let angeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var dumps: [Int64: [GraphDump]] = [:]
        var tallies: [Int64: [String]] = [:]
        for (step, zone) in [GraphArchive.utc, GraphArchive.utc, angeles, GraphArchive.utc].enumerated() {
            if step == 1 { try archive.check(GraphExports.second, named: "second.xml") }
            for size: Int64 in [1, 2, 31] {
                let engine = archive.engine(server, graph: "days-\(size)")
                var plan = try archive.plan(engine, zone: zone)
                plan.chunkDays = size
                let dry = try await GraphSyncRunner.dryRun(plan)
                let report = try await GraphSyncRunner.run(plan, on: engine, store: archive.store)
                #expect(report.outline == dry.outline && report.daysWritten == dry.daysWritten)
                tallies[size, default: []].append(
                    "\(report.daysWritten) written, \(report.daysRemoved) removed, \(report.outline.merged.sorted { $0.key < $1.key })"
                        + ", removed \(report.outline.removed.sorted { $0.key < $1.key })")
                dumps[size, default: []].append(try GraphDump(server.graph("days-\(size)")))
            }
        }
        #expect(tallies[1] == tallies[31])
        #expect(tallies[2] == tallies[31])
        #expect(dumps[1] == dumps[31])
        #expect(dumps[2] == dumps[31])
        let last = try #require(dumps[31]?.last)
        #expect(last.relationships.contains { $0.contains("FOLLOWED_BY") })
    }
}

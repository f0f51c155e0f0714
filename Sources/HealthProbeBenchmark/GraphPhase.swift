import Foundation
import HealthProbeArchive
import HealthProbeGraph
import HealthProbeKit

/// One graph sync of the benchmark, in its own process: plan and write to a FalkorDB socket.
/// `graph SOCKET ARCHIVE [ZONE] [full]`: in `ZONE` (UTC by default), `full` rewriting every day.
enum GraphPhase {
    static func run(_ arguments: [String]) async throws -> BenchmarkPhase.Measurement {
        let socket = arguments[0]
        let store = try ArchiveStore.open(at: arguments[1], creating: false)
        let started = Date()
        let engine = FalkorDBEngine(endpoint: .unixSocket(socket), graph: "health", destination: "benchmark")
        let zone = TimeZone(identifier: arguments.count > 2 ? arguments[2] : "UTC")!
        let plan = try GraphSyncPlanner.plan(
            store, destination: engine.destination, timeZone: zone, full: arguments.count > 3 && arguments[3] == "full")
        let report = try await GraphSyncRunner.run(plan, on: engine, store: store)
        let counters = report.counters
        return BenchmarkPhase.Measurement(
            seconds: Date().timeIntervalSince(started), peakResidentKiB: 0, records: report.daysWritten, bytes: 0,
            outcome:
                "\(counters.nodesCreated) nodes created, \(counters.nodesDeleted) deleted, \(counters.relationshipsCreated) relationships created, \(counters.relationshipsDeleted) deleted, \(counters.propertiesSet) properties set, \(report.statements) statements"
        )
    }
}

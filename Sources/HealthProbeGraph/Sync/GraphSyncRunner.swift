import Foundation
import HealthProbeArchive
import HealthProbeKit

/// What a committed sync did.
public struct GraphSyncReport: Sendable {
    public let destination: String
    public let syncNumber: Int
    public internal(set) var daysWritten: Int
    public internal(set) var daysRemoved: Int
    public let anomalies: Int
    public internal(set) var outline: GraphOutline
    /// The engine's own count of what changed.
    public internal(set) var counters: GraphCounters
    public internal(set) var statements: Int
}

/// Runs a plan on an engine and, once the engine committed, records the destination's new state
/// in the archive. A failure rolls back what the engine can and leaves the state where it was,
/// so the next sync writes the same days again.
public enum GraphSyncRunner {
    /// Rows per statement: a few hundred, as the batch loaders of both engines like them.
    public static let batchSize = 500

    public static func run(
        _ plan: GraphSyncPlan, on engine: any GraphEngine, store: ArchiveStore, batchSize: Int = batchSize
    ) async throws -> GraphSyncReport {
        var report = GraphSyncReport(
            destination: engine.destination, syncNumber: plan.syncNumber, daysWritten: 0, daysRemoved: 0,
            anomalies: plan.anomalies.count, outline: GraphOutline(), counters: GraphCounters(), statements: 0)
        guard !plan.isEmpty else { return report }
        var unit: (any GraphTransaction)?
        var pass = GraphSyncPass(plan, GraphStatements(key: engine.dayKey))
        do {
            try await pass.run { write in
                if unit == nil {
                    if plan.isFirst { try await destinationFailures(engine) { try await engine.prepareSchema() } }
                    unit = try await destinationFailures(engine) { try await engine.begin() }
                }
                for start in stride(from: 0, to: write.rows.count, by: batchSize) {
                    let batch = Array(write.rows[start..<min(start + batchSize, write.rows.count)])
                    let result = try await destinationFailures(engine) {
                        try await unit!.run(write.statement, ["rows": .list(batch)])
                    }
                    report.counters = report.counters + result.counters
                    report.statements += 1
                }
            }
            if let unit { try await destinationFailures(engine) { try await unit.commit() } }
        } catch {
            await unit?.rollback()
            throw error
        }
        let tally = pass.tally
        report.daysWritten = tally.daysWritten
        report.daysRemoved = tally.daysRemoved
        report.outline = tally.outline
        // Nothing found to write (a first sync of an archive of nothing the graph shows).
        guard unit != nil else { return report }
        let done = report
        // Read-only until here when the command line opened it so: a refused sync changed nothing.
        try store.writable().recordGraphSync(
            plan.next,
            writtenDays: Dictionary(uniqueKeysWithValues: tally.changedDays.map { ($0.key.number, $0.value) }),
            message:
                "graph sync \(plan.syncNumber) to \(engine.destination): \(done.daysWritten) days written, \(done.daysRemoved) removed, \(done.anomalies) anomalies"
        )
        return report
    }

    /// What `plan` would write, counted as a sync counts it, with nothing sent: `--dry-run`.
    public static func dryRun(_ plan: GraphSyncPlan) async throws -> GraphSyncTally {
        guard !plan.isEmpty else { return GraphSyncTally() }
        var pass = GraphSyncPass(plan, GraphStatements(key: .text))
        try await pass.run { _ in }
        return pass.tally
    }

    /// Checks that the destination answers and takes the credentials, before the archive is read.
    public static func checkReachable(_ engine: any GraphEngine) async throws {
        try await destinationFailures(engine) { try await engine.checkReachable() }
    }

    /// Any failure of the engine, told as the destination's: its name and what happened.
    static func destinationFailures<T>(_ engine: any GraphEngine, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GraphSyncError {
            throw error
        } catch let error as Neo4jError {
            throw GraphSyncError.neo4j(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw GraphSyncError.destination(engine.destination, problem: "\(error)")
        }
    }
}

import Foundation
import GRDB
import HealthProbeKit

/// What a committed sync did.
public struct GraphSyncReport: Sendable {
    public let destination: String
    public let syncNumber: Int
    public let daysWritten: Int
    public let daysRemoved: Int
    public let anomalies: Int
    public let outline: GraphOutline
    /// The engine's own count of what changed.
    public let counters: GraphCounters
    public let statements: Int
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
        let writes = plan.writes
        var counters = GraphCounters()
        var statements = 0
        if !plan.isEmpty {
            if plan.isFirst {
                try await destinationFailures(engine) { try await engine.prepareSchema() }
            }
            let unit = try await destinationFailures(engine) { try await engine.begin() }
            do {
                for write in writes {
                    var start = 0
                    while start < write.rows.count {
                        let batch = Array(write.rows[start..<min(start + batchSize, write.rows.count)])
                        let result = try await destinationFailures(engine) {
                            try await unit.run(write.statement, ["rows": .list(batch)])
                        }
                        counters = counters + result.counters
                        statements += 1
                        start += batchSize
                    }
                }
                try await destinationFailures(engine) { try await unit.commit() }
            } catch {
                await unit.rollback()
                throw error
            }
            try await store.writer.write { db in
                let written = Dictionary(uniqueKeysWithValues: plan.changedDays.map { ($0, plan.contents[$0]?.hasData == true) })
                try plan.next.save(db, writtenDays: written)
                try AuditLog.appendGraphSynced(
                    db, captureID: plan.next.captureId,
                    message:
                        "graph sync \(plan.syncNumber) to \(engine.destination): \(plan.daysWritten.count) days written, \(plan.daysRemoved.count) removed, \(plan.anomalies.count) anomalies"
                )
            }
        }
        return GraphSyncReport(
            destination: engine.destination, syncNumber: plan.syncNumber, daysWritten: plan.daysWritten.count,
            daysRemoved: plan.daysRemoved.count, anomalies: plan.anomalies.count, outline: GraphOutline(writes),
            counters: counters, statements: statements)
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

import Foundation
import HealthProbeCLI
import HealthProbeGraph
import HealthProbeKit

extension HealthProbeCommand.GraphSync {
    func sync() async throws {
        let destination = try graph.destination()
        // Read-only until the destination has committed: a refused sync leaves the file as it was.
        let store = try archive.openForReading()
        let zone = try graph.zone(else: store.dayZone())
        // The destination must answer and take the credentials before the archive is read.
        let engine = dryRun ? nil : try graph.engine(for: destination)
        if let engine { try await GraphSyncRunner.checkReachable(engine) }
        let started = Date()
        let plan = try GraphSyncPlanner.plan(store, destination: destination.name, timeZone: zone, full: full)
        guard let engine else { return try printDryRun(plan, try await GraphSyncRunner.dryRun(plan)) }
        let report = try await GraphSyncRunner.run(plan, on: engine, store: store)
        if output.json { return try Output.json(GraphSyncJSON(report, seconds: Date().timeIntervalSince(started))) }
        if report.statements == 0 {
            return Output.line("The graph at \(destination.name) is up to date: nothing to write.")
        }
        Output.line(
            "Graph sync \(report.syncNumber) to \(destination.name): \(Output.grouped(report.daysWritten)) days written, \(Output.grouped(report.daysRemoved)) removed, \(Output.grouped(report.anomalies)) anomalies, in \(String(format: "%.1f", Date().timeIntervalSince(started))) s."
        )
        let counters = report.counters
        Output.line(
            "  the graph counted \(Output.grouped(counters.nodesCreated)) nodes created, \(Output.grouped(counters.nodesDeleted)) deleted, \(Output.grouped(counters.relationshipsCreated)) relationships created, \(Output.grouped(counters.relationshipsDeleted)) deleted, \(Output.grouped(counters.propertiesSet)) properties set"
        )
    }

    private func printDryRun(_ plan: GraphSyncPlan, _ tally: GraphSyncTally) throws {
        let outline = tally.outline
        if output.json { return try Output.json(GraphDryRunJSON(plan, tally)) }
        guard tally.writes > 0 else {
            return Output.line("Dry run: the graph at \(plan.destination) is up to date; nothing would be written.")
        }
        let kind = plan.isFirst ? " (a first sync writes every day)" : ""
        Output.line(
            "Dry run: graph sync \(plan.syncNumber) to \(plan.destination) would write \(Output.grouped(tally.daysWritten)) days and remove \(Output.grouped(tally.daysRemoved))\(kind), with \(Output.grouped(plan.anomalies.count)) anomalies."
        )
        Output.line(
            "  nodes merged: " + outline.nodes.map { "\($0.0) \(Output.grouped($0.1))" }.joined(separator: ", "))
        Output.line(
            "  relationships merged: "
                + outline.relationships.map { "\($0.0) \(Output.grouped($0.1))" }.joined(separator: ", "))
        if !outline.removed.isEmpty {
            Output.line(
                "  removed where present: "
                    + outline.removed.sorted { $0.key < $1.key }.map {
                        "\($0.key) of \(Output.grouped($0.value)) days"
                    }
                    .joined(separator: ", "))
        }
        Output.line("Nothing was sent.")
    }
}

/// `graph sync --json`: what a committed sync did, counts only.
struct GraphSyncJSON: Encodable {
    var destination: String
    var sync: Int
    var daysWritten: Int
    var daysRemoved: Int
    var anomalies: Int
    var statements: Int
    var counters: [String: Int]
    var seconds: Double

    init(_ report: GraphSyncReport, seconds: Double) {
        destination = report.destination
        sync = report.syncNumber
        daysWritten = report.daysWritten
        daysRemoved = report.daysRemoved
        anomalies = report.anomalies
        statements = report.statements
        let counted = report.counters
        counters = [
            "nodesCreated": counted.nodesCreated, "nodesDeleted": counted.nodesDeleted,
            "relationshipsCreated": counted.relationshipsCreated, "relationshipsDeleted": counted.relationshipsDeleted,
            "propertiesSet": counted.propertiesSet, "propertiesRemoved": counted.propertiesRemoved,
            "labelsAdded": counted.labelsAdded,
        ]
        self.seconds = (seconds * 1000).rounded() / 1000
    }
}

/// `graph sync --dry-run --json`: what would be written, by label; no values.
struct GraphDryRunJSON: Encodable {
    var destination: String
    var sync: Int
    var first: Bool
    var daysWritten: Int
    var daysRemoved: Int
    var anomalies: Int
    var nodes: [String: Int]
    var relationships: [String: Int]
    var removed: [String: Int]

    init(_ plan: GraphSyncPlan, _ tally: GraphSyncTally) {
        destination = plan.destination
        sync = plan.syncNumber
        first = plan.isFirst
        daysWritten = tally.daysWritten
        daysRemoved = tally.daysRemoved
        anomalies = plan.anomalies.count
        let outline = tally.outline
        nodes = Dictionary(uniqueKeysWithValues: outline.nodes)
        relationships = Dictionary(uniqueKeysWithValues: outline.relationships)
        removed = outline.removed
    }
}

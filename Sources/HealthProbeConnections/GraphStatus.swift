import Foundation
import HealthProbeCLI
import HealthProbeGraph
import HealthProbeKit

extension HealthProbeCommand.GraphStatus {
    func show() throws {
        let store = try archive.openForReading()
        var names: [String]? = nil
        if let to { names = [try GraphDestination.parse(to).name] }
        let statuses = try GraphSyncStatus.read(store, destinations: names)
        if output.json { return try Output.json(statuses) }
        guard !statuses.isEmpty else {
            return Output.line(
                "No graph has been synced yet: `healthprobe graph sync --to falkordb:///path/to/falkordb.sock` writes one."
            )
        }
        for status in statuses {
            Output.line("\(status.destination)")
            guard let last = status.lastSync, let days = status.pendingDays, let anomalies = status.pendingAnomalies
            else {
                Output.line("  never synced: its first sync writes every day (`healthprobe graph sync --to URL`)")
                continue
            }
            Output.line(
                "  last sync \(last.number) at \(last.at): capture \(last.capture), days cut in \(last.timeZone)")
            Output.line(
                days == 0 && anomalies == 0
                    ? "  up to date"
                    : "  pending: \(Output.grouped(days)) days, \(Output.grouped(anomalies)) anomalies")
        }
    }
}

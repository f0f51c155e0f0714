import ArgumentParser
import Foundation
import HealthProbeGraph
import HealthProbeKit

extension HealthProbeCommand {
    struct GraphStatus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each graph destination: its last sync and what is pending for the next.")

        @Option(help: ArgumentHelp("Only this destination.", valueName: "url"))
        var to: String?

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
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
}

import ArgumentParser
import HealthProbeKit

extension HealthProbeCommand {
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Mark anomalies resolved: they leave the default `anomalies` list and stay in the archive (--reopen undoes it)."
        )

        @OptionGroup var archive: ArchiveOptions

        @Argument(help: "The ids of the anomalies, as `healthprobe anomalies` lists them.")
        var ids: [Int64]

        @Flag(help: "Open resolved anomalies again (a resolution made by mistake).")
        var reopen = false

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("Name at least one anomaly id.") }
        }

        func run() async throws {
            let store = try archive.openExisting()
            let resolved = reopen ? try store.reopenAnomalies(ids: ids) : try store.resolveAnomalies(ids: ids)
            for anomaly in resolved {
                Output.line("\(reopen ? "Reopened" : "Resolved") #\(anomaly.id): \(anomaly.summary)")
            }
        }
    }
}

import ArgumentParser
import HealthProbeArchive
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
            // What was already so is said so: `resolve 5` twice changes nothing the second time.
            let already = Set(
                try ids.compactMap { try store.fetchAnomaly(id: $0) }.filter { $0.resolved != reopen }.map(\.id))
            let resolved = reopen ? try store.reopenAnomalies(ids: ids) : try store.resolveAnomalies(ids: ids)
            for anomaly in resolved {
                let done = reopen ? "Reopened" : "Resolved"
                Output.line(
                    already.contains(anomaly.id)
                        ? "#\(anomaly.id) was already \(reopen ? "open" : "resolved") (nothing was changed): \(anomaly.summary)"
                        : "\(done) #\(anomaly.id): \(anomaly.summary)")
            }
        }
    }
}

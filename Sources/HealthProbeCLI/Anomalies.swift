import ArgumentParser
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Anomalies: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the anomalies the checks found (unresolved ones unless --all).",
            usage: """
                healthprobe anomalies [--severity <level>] [--type <type>] [--all]
                  [<options>]
                """)

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        @Option(help: "Only anomalies at or above this severity (info, warning, critical).")
        var severity: Severity?

        @Option(
            help: ArgumentHelp(
                "Only anomalies of this type: \(AnomalyType.allCases.map(\.rawValue).joined(separator: ", ")).",
                valueName: "type"))
        var type: AnomalyType?

        @Flag(help: "Include resolved anomalies.")
        var all = false

        func run() async throws {
            let store = try archive.openForReading()
            let filter = ArchiveStore.AnomalyFilter(includeResolved: all, minimumSeverity: severity, type: type)
            let anomalies = try store.fetchAnomalies(filter)
            if output.json { return try Output.json(anomalies) }
            guard !anomalies.isEmpty else {
                return Output.line(all ? "No anomalies in this archive." : "No unresolved anomalies.")
            }
            var captureID: Int64?
            for anomaly in anomalies {
                if anomaly.captureId != captureID {
                    captureID = anomaly.captureId
                    Output.line("Capture \(anomaly.captureId):")
                }
                Output.line(AnomalyText.line(anomaly))
            }
        }
    }
}

extension Severity: ExpressibleByArgument {}
extension AnomalyType: ExpressibleByArgument {}

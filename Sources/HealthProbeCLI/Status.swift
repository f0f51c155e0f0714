import ArgumentParser
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the archive: last capture, per-type counts, size and its last verification.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openForReading()
            let status = try store.status()
            if output.json { return try Output.json(status) }
            let known: [MonitorStatus] = [.healthy, .warning, .critical]
            let meaning = known.first { $0.label == status.status }?.meaning ?? status.statusMessage
            Output.line("Status: \(status.status) (\(meaning))")
            Output.line("Archive \(status.path ?? "in memory")")
            Output.line("  size \(Output.size(status.archiveBytes)), \(Self.integrity(status))")
            Output.line(
                "  \(status.captures) capture\(status.captures == 1 ? "" : "s"), \(Output.grouped(status.recordsEverSeen)) records ever seen, \(Output.grouped(status.recordsGone)) gone"
            )
            let open = Severity.allCases.reversed().compactMap { severity in
                status.openAnomalies[severity.rawValue].map { "\($0) \(severity.rawValue)" }
            }
            Output.line(
                open.isEmpty
                    ? "  no unresolved anomalies"
                    : "  unresolved anomalies: \(open.joined(separator: ", ")) (`healthprobe anomalies` lists them)")
            guard let last = status.lastCapture else { return Output.line("No captures yet.") }
            Output.line(
                "Last capture \(last.id), completed \(last.completedAt.map(Output.time) ?? "-"), \(Output.grouped(last.records)) records"
            )
            for type in status.types {
                let sources = type.sources.count == 1 ? "1 source" : "\(type.sources.count) sources"
                Output.line(
                    "  \(Output.grouped(type.count).padding(12))\(HealthKitCatalog.displayName(of: type.type))  (\(sources))"
                )
            }
        }

        /// The last verification, which `status` reports but does not run (it reads every page).
        static func integrity(_ status: ArchiveStatus) -> String {
            guard let result = status.integrity, let checkedAt = status.integrityCheckedAt else {
                return "not verified yet (`healthprobe archive verify` checks it)"
            }
            let when = Output.time(checkedAt)
            return result == "ok"
                ? "verified intact \(when)" : "damaged when verified \(when): \(result) (`healthprobe archive verify`)"
        }
    }
}

import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show one anomaly with its evidence and records; --format markdown gives a report for a bug report.",
            usage: """
                healthprobe show <id> [--format <format>] [--include-values] [<options>]
                """)

        @OptionGroup var archive: ArchiveOptions

        @Argument(help: "The anomaly's id, as `healthprobe anomalies` lists it.")
        var id: Int64

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, markdown, json
        }

        @Option(help: "text, markdown or json.")
        var format: Format = .text

        @Flag(help: "Include the records' health values (left out by default, so a report can be shared).")
        var includeValues = false

        @Option(help: "List at most this many records.")
        var limit = 50

        func validate() throws {
            guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
        }

        func run() async throws {
            let store = try archive.openForReading()
            let details = try store.exportReport(anomalyID: id, includeValues: includeValues, limit: limit)
            guard let details else { throw ArchiveError.unknownAnomalies([String(id)]) }
            switch format {
            case .json: try Output.json(details)
            case .markdown: Output.lines(details.markdownLines)
            case .text:
                Output.lines(details.textLines)
                var more: [String] = []
                if details.recordTotal > details.records.count {
                    more.append("`healthprobe show \(id) --limit \(details.recordTotal)` lists every record")
                }
                if !includeValues && !details.records.isEmpty {
                    more.append("`--include-values` shows their values")
                }
                if !more.isEmpty { Output.line("(" + more.joined(separator: "; ") + ".)") }
            }
        }
    }
}

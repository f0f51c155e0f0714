import ArgumentParser
import Foundation
import HealthProbeKit

extension HealthProbeCommand {
    struct ExportHistory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history", abstract: "List every export, manual or scheduled, and how it ended.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openForReading()
            let runs = try store.fetchExportRuns()
            if output.json { return try Output.json(runs) }
            guard !runs.isEmpty else { return Output.line("No exports yet.") }
            for run in runs {
                var line =
                    "#\(run.id)  \(Output.time(run.startedAt))  \(run.trigger.rawValue)  \(run.format)"
                if run.encrypted { line += " (encrypted)" }
                line += "  \(run.range)  \(run.outcome.rawValue)"
                if let records = run.records { line += "  \(Output.grouped(records)) records" }
                if let bytes = run.bytes {
                    line += "  \(Output.size(bytes))"
                }
                if let capture = run.captureId { line += "  capture \(capture)" }
                Output.line(line)
                Output.line("    \(run.path)")
                if let sha256 = run.sha256 { Output.line("    sha256 \(sha256)") }
                if let problem = run.problem { Output.line("    \(problem)") }
            }
        }
    }
}

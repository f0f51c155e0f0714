import ArgumentParser
import HealthProbeKit

extension HealthProbeCommand {
    struct Captures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the captures in the archive, or set a wrong one aside.",
            subcommands: [CapturesList.self, CapturesExclude.self, CapturesInclude.self],
            defaultSubcommand: CapturesList.self)
    }

    struct CapturesList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the complete captures, and those set aside.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openForReading()
            let captures = try store.fetchCaptures(includingSetAside: true)
            if output.json { return try Output.json(captures) }
            guard !captures.isEmpty else { return Output.line("No captures yet: run `healthprobe check export.zip`.") }
            let rows = captures.map { capture in
                [
                    String(capture.id), capture.origin.rawValue, capture.completedAt.map(Output.time) ?? "-",
                    capture.exportDate.map(Output.time) ?? "-", Output.grouped(capture.records),
                    Output.grouped(capture.new), Output.grouped(capture.gone), Output.grouped(capture.unreadable),
                ]
            }
            let header = ["id", "origin", "completed", "exported", "records", "new", "gone", "unreadable"]
            // Each column as wide as its widest cell, two spaces between: times in zones with
            // long names ("GMT-8") never run into the next column.
            let widths = header.indices.map { column in
                ([header] + rows).map { $0[column].count }.max() ?? 0
            }
            for row in [header] + rows {
                Output.line(
                    row.enumerated().map { column, cell in
                        column == row.count - 1 ? cell : cell.padding(widths[column] + 2)
                    }.joined())
            }
            for capture in captures {
                guard let setAside = capture.setAside else { continue }
                Output.line(
                    "Capture \(capture.id) set aside \(Output.time(setAside.at)) (\(setAside.reason)): "
                        + "compared with nothing; `healthprobe captures include \(capture.id)` takes it back.")
            }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

import ArgumentParser
import HealthProbeKit

extension HealthProbeCommand {
    struct Captures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the complete captures in the archive.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openForReading()
            let captures = try store.fetchCaptures()
            if output.json { return try Output.json(captures) }
            guard !captures.isEmpty else { return Output.line("No captures yet: run `healthprobe check export.zip`.") }
            Output.line(
                "id  origin     completed             exported              records     new         gone        unreadable"
            )
            for capture in captures {
                let columns = [
                    String(capture.id).padding(4), capture.origin.rawValue.padding(11),
                    (capture.completedAt.map(Output.time) ?? "-").padding(22),
                    (capture.exportDate.map(Output.time) ?? "-").padding(22),
                    Output.grouped(capture.records).padding(12),
                    Output.grouped(capture.new).padding(12), Output.grouped(capture.gone).padding(12),
                    Output.grouped(capture.unreadable),
                ]
                Output.line(columns.joined())
            }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

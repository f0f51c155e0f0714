import ArgumentParser
import HealthProbeArchive
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
            Output.lines(Self.table(captures))
            for capture in captures {
                guard let setAside = capture.setAside else { continue }
                Output.line(
                    "Capture \(capture.id) set aside \(Output.time(setAside.at)) (\(setAside.reason)): "
                        + "compared with nothing; `healthprobe captures include \(capture.id)` takes it back.")
            }
        }
    }
}

extension HealthProbeCommand.CapturesList {
    /// The captures as a table that fits 80 columns: times without their zone when every one
    /// has the same (named once in the header), and the unreadable column only when a capture
    /// had unreadable records.
    static func table(_ captures: [CaptureSummary]) -> [String] {
        var header = ["id", "origin", "completed", "exported", "records", "new", "gone", "unreadable"]
        var rows = captures.map { capture in
            [
                String(capture.id), capture.origin.rawValue, capture.completedAt.map(Output.time) ?? "-",
                capture.exportDate.map(Output.time) ?? "-", Output.grouped(capture.records),
                Output.grouped(capture.new), Output.grouped(capture.gone), Output.grouped(capture.unreadable),
            ]
        }
        if captures.allSatisfy({ $0.unreadable == 0 }) {
            header.removeLast()
            rows = rows.map { Array($0.dropLast()) }
        }
        let times = rows.flatMap { [$0[2], $0[3]] }.filter { $0 != "-" }
        if let zone = times.first?.split(separator: " ").last, times.allSatisfy({ $0.hasSuffix(" \(zone)") }) {
            header[2] += " (\(zone))"
            header[3] += " (\(zone))"
            rows = rows.map { row in
                var row = row
                for column in [2, 3] where row[column] != "-" {
                    row[column] = String(row[column].dropLast(zone.count + 1))
                }
                return row
            }
        }
        // Each column as wide as its widest cell, two spaces between: times in zones with
        // long names ("GMT-8") never run into the next column.
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in column == row.count - 1 ? cell : cell.padding(widths[column] + 2) }
                .joined()
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

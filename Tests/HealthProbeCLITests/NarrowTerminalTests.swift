import Foundation
import TestSupport
import Testing

/// What a person reads in an 80-column terminal: every line within it, a long summary going on
/// under its own column, and piped output (no `COLUMNS`) one entry a line for scripts.
@Suite("An 80-column terminal")
struct NarrowTerminalTests {
    static let narrow = ["COLUMNS": "80"]

    /// Lines over 80 columns, but for one that is a single word after its indent (a path or a
    /// command, never broken).
    static func overlong(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            line.count > 80 && line.trimmingCharacters(in: .whitespaces).contains(" ")
        }
    }

    @Test func everyCommandsHelpFits() throws {
        var commands: [[String]] = [[]]
        var index = 0
        while index < commands.count {
            let command = commands[index]
            index += 1
            let help = try CommandRunner.run(command + ["--help"], environment: Self.narrow)
            #expect(help.status == 0, "\(command)")
            #expect(Self.overlong(help.stdout).isEmpty, "\(command): \(Self.overlong(help.stdout))")
            guard let listed = help.stdout.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { continue }
            // The list ends at its first empty line (a "See 'healthprobe help …'" line follows).
            for line in listed.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.isEmpty { break }
                guard !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
                commands.append(command + [String(name)])
            }
        }
        #expect(commands.count > 20 && commands.count < 60, "the commands were found: \(commands)")
    }

    @Test func readingsFitAndGoOnUnderTheirColumn() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("demo.sqlite").path
        let demo = try CommandRunner.run(["demo", "--keep", archive], environment: Self.narrow)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(Self.overlong(demo.stdout).isEmpty, "\(Self.overlong(demo.stdout))")
        let readings: [[String]] = [
            ["anomalies", "--all"], ["show", "1"], ["show", "3"], ["show", "4"], ["audit"], ["captures"], ["status"],
            ["settings"],
        ]
        for reading in readings {
            let outcome = try CommandRunner.run(reading + ["--archive", archive], environment: Self.narrow)
            #expect(outcome.status == 0, "\(reading): \(outcome.stderr)")
            #expect(Self.overlong(outcome.stdout).isEmpty, "\(reading): \(Self.overlong(outcome.stdout))")
        }
        // The heart-rate loss's summary goes on under the summary's column, not at the margin.
        let anomalies = try CommandRunner.run(["anomalies", "--all", "--archive", archive], environment: Self.narrow)
            .stdout
        let lines = anomalies.split(separator: "\n").map(String.init)
        let loss = try #require(lines.firstIndex { $0.contains("240 heart rate records vanished") })
        let column = try #require(lines[loss].range(of: "240 heart rate")).lowerBound
        let next = lines[loss + 1]
        #expect(next.prefix { $0 == " " }.count == lines[loss].distance(from: lines[loss].startIndex, to: column))
        #expect(next.contains("2000-02-18 – 2000-02-27"), "\(next)")
    }

    @Test func pipedOutputKeepsAnEntryALine() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("demo.sqlite").path
        #expect(try CommandRunner.run(["demo", "--keep", archive]).status == 0)
        let anomalies = try CommandRunner.run(["anomalies", "--all", "--archive", archive]).stdout
        let line = try #require(
            anomalies.split(separator: "\n").first { $0.contains("240 heart rate records vanished") })
        #expect(
            line.hasSuffix(
                "(13.9% of 1,728, 2000-02-18 – 2000-02-27)  (restored: 240 of 240 put back since capture 31)"),
            "\(line)")
        #expect(line.count > 80)
    }
}

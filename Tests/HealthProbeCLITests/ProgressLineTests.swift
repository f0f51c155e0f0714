import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// The progress line on a real terminal (a pseudo-terminal `script` makes): never wider than the
/// terminal, so it never wraps into stale lines, and gone when the command ends.
@Suite("Progress line")
struct ProgressLineTests {
    /// Runs `healthprobe ARGS` on a terminal `columns` wide; returns what the terminal received.
    static func onTerminal(_ arguments: [String], columns: Int, environment: [String: String] = [:]) throws -> String {
        let command = ([CommandRunner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": String(columns)]) { $1 }
            .merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    /// The lines written over one another: what follows each "clear the line", up to the next —
    /// the command's own output, after the last clear, ends in a line break and is left out.
    static func progressLines(_ screen: String) -> [String] {
        screen.components(separatedBy: "\r\u{1B}[2K").dropFirst().filter { !$0.isEmpty && !$0.contains("\n") }
    }

    @Test(.enabled(if: Platform.isLinux, "util-linux's script gives the real terminal"), arguments: [40, 80])
    func checkAndExportFitTheTerminal(_ columns: Int) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 60_000, seed: 3)).writeZip(
            to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path

        let check = try Self.onTerminal(["check", export.path, "--archive", archive], columns: columns)
        let lines = Self.progressLines(check)
        #expect(!lines.isEmpty, "no progress line on a terminal")
        #expect(lines.allSatisfy { $0.count < columns }, "\(lines.filter { $0.count >= columns })")
        #expect(lines.contains { $0.contains("%") && $0.contains("records") })
        // Cleared before the report: the report starts on a clean line.
        #expect(check.contains("\r\u{1B}[2KCapture 1"))

        let output = folder.appendingPathComponent("export.json").path
        let exported = try Self.onTerminal(
            ["export", "--format", "json", "--output", output, "--archive", archive], columns: columns)
        #expect(Self.progressLines(exported).allSatisfy { $0.count < columns })
    }
}

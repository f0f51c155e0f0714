import Foundation
import TestSupport
import Testing

/// `mcp` and `graph` run in `healthprobe-connect`, beside `healthprobe`: the command line is
/// handed over whole, and what the command says and its exit code are its own. Without that
/// executable, one line says what to build, and nothing is done. `healthprobe` itself loads no
/// HTTP client (the point of the split: libcurl and its TLS libraries cost every process 6 MB).
@Suite("Commands handed over to healthprobe-connect")
struct ConnectionHandOverTests {
    @Test func theCommandsRunBesideItWithTheirOwnWordsAndCodes() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let unnamed = try CommandRunner.run(["graph", "sync", "--archive", archive])
        #expect(unnamed.status == 64)
        #expect(unnamed.stderr == "healthprobe: name the destination with --to URL\n")
        let status = try CommandRunner.run(["graph", "status", "--archive", archive])
        #expect(status.status == 74 && status.stderr.contains("no archive"), "\(status.stderr)")
        let help = try CommandRunner.run(["mcp", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--reveal-values"))
    }

    @Test func withoutItOneLineSaysWhatToBuildAndNothingIsDone() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let lone = folder.appendingPathComponent("healthprobe")
        try FileManager.default.copyItem(at: CommandRunner.executable, to: lone)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        for arguments in [["graph", "status"], ["mcp"]] {
            let outcome = try CommandRunner.run(arguments + ["--archive", archive], executable: lone)
            #expect(outcome.status == 74)
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(
                outcome.stderr.hasPrefix(
                    "healthprobe: `\(arguments[0])` runs in healthprobe-connect, which is not beside "))
            #expect(outcome.stderr.contains("swift build -c release --product healthprobe-connect"))
        }
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    #if os(Linux)
        @Test func healthprobeLoadsNoHTTPClient() throws {
            func needed(_ executable: URL) throws -> String {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
                process.arguments = [executable.path]
                let out = Pipe()
                process.standardOutput = out
                try process.run()
                let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return listed
            }
            let own = try needed(CommandRunner.executable)
            #expect(own.contains("libsqlite3") && !own.contains("libFoundationNetworking") && !own.contains("libcurl"))
            let connect = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent(
                "healthprobe-connect")
            #expect(try needed(connect).contains("libFoundationNetworking"))
        }
    #endif
}

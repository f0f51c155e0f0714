import Foundation
import TestSupport
import Testing

/// `export --output -` streams to standard output for a pipe; `--force` replaces files only.
@Suite("Export to standard output")
struct ExportStreamTests {
    static func archive() throws -> (folder: URL, archive: String) {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(
            try CommandRunner.run(["check", FixtureFiles.url("tdda/export6s3sample.xml").path, "--archive", archive])
                .status == 0)
        return (folder, archive)
    }

    @Test func jsonLinesGoToStandardOutputAndNoFileIsMade() throws {
        let (folder, archive) = try Self.archive()
        let outcome = try CommandRunner.run(
            ["export", "--format", "jsonl", "--output", "-", "--archive", archive], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(outcome.stderr.contains("Exported 18 records from capture 1 to standard output"))
        #expect(!outcome.stderr.contains("Manifest"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))

        // A rebuilt Apple export streams too: the zip writer never seeks.
        let zip = try CommandRunner.run(
            ["export", "--format", "apple-health", "--output", "-", "--archive", archive], in: folder)
        #expect(zip.status == 0 && zip.stdout.utf8.starts(with: [0x50, 0x4B, 0x03, 0x04]))
    }

    @Test func aReaderThatStopsEarlyIsToldTheOutputIsIncomplete() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let export = folder.appendingPathComponent("export.zip").path
        #expect(try CommandRunner.run(["generate", export, "--records", "3000"]).status == 0)
        #expect(try CommandRunner.run(["check", export, "--archive", archive]).status == 0)
        // About a megabyte of JSON lines into `head -c 100`: far more than a pipe holds.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [
            "-c", "set -o pipefail; \"$0\" export --format jsonl --output - --archive \"$1\" | head -c 100 >/dev/null",
            CommandRunner.executable.path, archive,
        ]
        let err = Pipe()
        shell.standardError = err
        try shell.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 74, "\(stderr)")
        #expect(
            stderr == "healthprobe: standard output was closed early: what reached it is incomplete\n")
    }

    @Test func sqliteAndEncryptedExportsRefuseAPipeWithTheirReason() throws {
        let (folder, archive) = try Self.archive()
        let sqlite = try CommandRunner.run(
            ["export", "--format", "sqlite", "--output", "-", "--archive", archive], in: folder)
        #expect(sqlite.status == 64)
        #expect(sqlite.stderr.contains("cannot export to standard output: a SQLite export is a file"))
        #expect(sqlite.stdout.isEmpty)
    }

    @Test func forceReplacesOnlyARegularFile() throws {
        let (folder, archive) = try Self.archive()
        let pipe = folder.appendingPathComponent("pipe.json")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        for force in [["--force"], []] {
            let outcome = try CommandRunner.run(
                ["export", "--format", "json", "--output", pipe.path, "--archive", archive] + force)
            #expect(outcome.status == 64)
            #expect(outcome.stderr.contains("is not a file (a device or a pipe): name a file to write, or - for"))
            #expect(!outcome.stderr.contains("--force"))
        }
        let type = (try FileManager.default.attributesOfItem(atPath: pipe.path))[.type] as? FileAttributeType
        #expect(type != .typeRegular && type != nil)
        // A folder, or no name at all, is no file either: said so, with no --force to try.
        let inFolder = try CommandRunner.run(
            ["export", "--format", "json", "--output", folder.path, "--force", "--archive", archive])
        #expect(inFolder.status == 64 && inFolder.stderr.contains("is a folder: name a file to write"))
        let unnamed = try CommandRunner.run(["export", "--format", "json", "--output", "", "--archive", archive])
        #expect(unnamed.status == 64 && unnamed.stderr.contains("--output needs a file name"))
    }
}

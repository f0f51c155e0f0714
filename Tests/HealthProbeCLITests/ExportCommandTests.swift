import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// `healthprobe export`, `decrypt` and the schedule as a user runs them: exit codes, one-line
/// messages, nothing left behind, and the independent decrypter.
@Suite("Export command", .serialized)
struct ExportCommandTests {
    /// A checked archive in its own folder, with an owner-only password file and its own state
    /// folder for temporaries.
    struct Setup {
        let folder: URL
        let archive: String
        let passwordFile: String
        var environment: [String: String] { ["HEALTHPROBE_STATE_DIR": folder.appendingPathComponent("state").path] }

        init(records: Int = 3_000) throws {
            folder = try FixtureFiles.temporaryFolder()
            archive = folder.appendingPathComponent("archive.sqlite").path
            let export = folder.appendingPathComponent("export.zip")
            try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: records, seed: 9)).writeZip(
                to: export)
            let check = try CommandRunner.run(["check", export.path, "--archive", archive])
            #expect(check.status == 0, "\(check.stderr)")
            passwordFile = folder.appendingPathComponent("password").path
            try Data("Test Password\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
            chmod(passwordFile, 0o600)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func run(_ arguments: [String]) throws -> CommandRunner.Outcome {
            let archiveOption = arguments.first == "decrypt" ? [] : ["--archive", archive]
            return try CommandRunner.run(arguments + archiveOption, environment: environment, in: folder)
        }

        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.contains("healthprobe-partial")
            }
        }
    }

    @Test func badUsageIsOneLineAndExit64() throws {
        let setup = try Setup()
        let cases: [([String], String)] = [
            (
                ["export", "--format", "json", "--output", "x.json", "--types", "HeartRat"],
                "did you mean HeartRate, HeartRateVariabilitySDNN or RestingHeartRate?"
            ),
            (
                ["export", "--format", "json", "--output", "x.json", "--from", "2000-02-01", "--to", "2000-01-01"],
                "--from is after --to"
            ),
            (["export", "--format", "json", "--output", "x.json", "--from", "yesterday"], "cannot read the date"),
            (
                ["export", "--format", "json", "--output", "x.json", "--as-of-capture", "9"],
                "there is no complete capture 9"
            ),
            (["export", "--format", "json", "--output", "x.json", "--time-zone", "Mars/Olympus"], "unknown time zone"),
        ]
        for (arguments, message) in cases {
            let outcome = try setup.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }
        let unknownFormat = try setup.run(["export", "--format", "xml", "--output", "x.xml"])
        #expect(unknownFormat.status == 64)
        #expect(!FileManager.default.fileExists(atPath: setup.path("x.json")))
        #expect(try setup.leftovers().isEmpty)
    }

    @Test func anExistingFileIsKeptUnlessForcedAndAnUnwritableFolderIs74() throws {
        let setup = try Setup()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: setup.path("x.csv")))
        let refused = try setup.run(["export", "--format", "csv", "--output", "x.csv"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("exists; add --force"))
        #expect(try String(contentsOfFile: setup.path("x.csv"), encoding: .utf8) == "mine")
        let forced = try setup.run(["export", "--format", "csv", "--output", "x.csv", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: setup.path("x.csv"), encoding: .utf8).hasPrefix("id,kind,type,"))
        let unwritable = try setup.run(["export", "--format", "csv", "--output", setup.path("missing/x.csv")])
        #expect(unwritable.status == 74)
        #expect(unwritable.stderr.contains("does not exist"))
    }

    /// An export onto the archive — by its name, another spelling, a link, or one of SQLite's
    /// files beside it, `--force` or not, as a file or a manifest — is refused before any work,
    /// and the archive is exactly as it was and still intact.
    @Test func anExportOntoItsOwnArchiveIsRefusedUnderAnyName() throws {
        let setup = try Setup()
        let links = setup.path("links")
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: setup.path("links/symbolic.sqlite"), withDestinationPath: setup.archive)
        try FileManager.default.linkItem(atPath: setup.archive, toPath: setup.path("links/hard.sqlite"))
        try FileManager.default.createSymbolicLink(
            atPath: setup.path("folder-link"), withDestinationPath: setup.folder.path)
        let before = try ArchiveInspection.digest(setup.archive, excluding: ["exportRun"])
        let names = [
            setup.archive, "archive.sqlite", "./links/../archive.sqlite", setup.path("links/symbolic.sqlite"),
            setup.path("links/hard.sqlite"), setup.path("folder-link/archive.sqlite"), "archive.sqlite-wal",
            "archive.sqlite-shm",
        ]
        for name in names {
            for format in ["json", "sqlite", "apple-health"] {
                let outcome = try setup.run(["export", "--format", format, "--output", name, "--force"])
                #expect(outcome.status == 64, "\(name) \(format): \(outcome.stderr)")
                #expect(
                    outcome.stderr.hasSuffix(
                        "is the archive itself or one of its files; export to another file (nothing was written)\n"))
                #expect(outcome.stderr.split(separator: "\n").count == 1)
            }
        }
        #expect(try ArchiveInspection.digest(setup.archive, excluding: ["exportRun"]) == before)
        #expect(try ArchiveInspection.integrity(setup.archive) == "ok")
        let verify = try setup.run(["archive", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(try setup.leftovers().isEmpty)
        // A backup onto a hard link of the archive is refused the same way.
        let backup = try setup.run(["archive", "backup", setup.path("links/hard.sqlite"), "--force"])
        #expect(backup.status == 74)
        #expect(backup.stderr.contains("is the archive itself"))
    }

    /// A write that fails mid-way (a file-size limit stands in for a full disk) removes the
    /// partial file and exits 74.
    @Test(.enabled(if: Platform.isLinux, "util-linux's prlimit sets the file-size limit"))
    func aFailedWriteMidwayLeavesNothing() throws {
        let setup = try Setup()
        let archiveBytes = try FileManager.default.attributesOfItem(atPath: setup.archive)[.size] as! Int
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = [
            "--fsize=\(archiveBytes + 200_000)", CommandRunner.executable.path, "export", "--format", "json",
            "--output", setup.path("big.json"), "--archive", setup.archive,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(setup.environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(stderr.hasPrefix("healthprobe: the export failed: "), "\(stderr)")
        #expect(stderr.hasSuffix("nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: setup.path("big.json")))
        #expect(try setup.leftovers().isEmpty)
    }

    @Test func encryptedRoundTripAndRefusals() throws {
        let setup = try Setup()
        let exported = try setup.run([
            "export", "--format", "jsonl", "--output", "data.jsonl.enc", "--encrypt", "--password-file",
            setup.passwordFile,
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let plain = try setup.run(["export", "--format", "jsonl", "--output", "data.jsonl"])
        #expect(plain.status == 0)
        let decrypted = try setup.run([
            "decrypt", "data.jsonl.enc", "--output", "back.jsonl", "--password-file", setup.passwordFile,
        ])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(
            FileManager.default.contents(atPath: setup.path("back.jsonl"))
                == FileManager.default.contents(atPath: setup.path("data.jsonl")))

        let wrong = setup.path("wrong")
        try Data("Not It".utf8).write(to: URL(fileURLWithPath: wrong))
        chmod(wrong, 0o600)
        let refused = try setup.run(["decrypt", "data.jsonl.enc", "--output", "nope.jsonl", "--password-file", wrong])
        #expect(refused.status == 65)
        #expect(refused.stderr == "healthprobe: wrong password\n")
        // Damage in the first megabyte with the right password is damage, not the password.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: setup.path("data.jsonl.enc")))
        damaged[200] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: setup.path("damaged.enc")))
        let blamed = try setup.run([
            "decrypt", "damaged.enc", "--output", "nope.jsonl", "--password-file", setup.passwordFile,
        ])
        #expect(blamed.status == 65)
        #expect(blamed.stderr == "healthprobe: the file was altered or is incomplete\n")
        let cut = try Data(contentsOf: URL(fileURLWithPath: setup.path("data.jsonl.enc"))).dropLast(100)
        try cut.write(to: URL(fileURLWithPath: setup.path("cut.enc")))
        let truncated = try setup.run([
            "decrypt", "cut.enc", "--output", "nope.jsonl", "--password-file", setup.passwordFile,
        ])
        #expect(truncated.status == 65)
        #expect(truncated.stderr == "healthprobe: the file was altered or is incomplete\n")
        #expect(!FileManager.default.fileExists(atPath: setup.path("nope.jsonl")))

        // A password file others can read is refused, and nothing is written.
        let open = setup.path("open-password")
        try Data("Test Password".utf8).write(to: URL(fileURLWithPath: open))
        chmod(open, 0o644)
        let loose = try setup.run([
            "export", "--format", "csv", "--output", "loose.csv", "--encrypt", "--password-file", open,
        ])
        #expect(loose.status == 64)
        #expect(loose.stderr.contains("can be read by others"))
        #expect(!FileManager.default.fileExists(atPath: setup.path("loose.csv")))
        #expect(try setup.leftovers().isEmpty)
    }

    /// The decrypter written from docs/ENCRYPTED-EXPORTS.md alone, in Python, reads HealthProbe's
    /// output and refuses a cut file.
    @Test func theIndependentDecrypterReadsWhatHealthProbeWrites() throws {
        let setup = try Setup()
        let script = CommandRunner.executable.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/decrypt-export.py").path
        let exported = try setup.run([
            "export", "--format", "sqlite", "--output", "data.sqlite.enc", "--encrypt", "--password-file",
            setup.passwordFile,
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let python = try Self.python([
            script, setup.path("data.sqlite.enc"), setup.path("data.sqlite"), "--password-file", setup.passwordFile,
        ])
        #expect(python.status == 0, "\(python.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: setup.path("data.sqlite"))).prefix(16)
        #expect(header == Data("SQLite format 3\0".utf8))
        let cut = try Data(contentsOf: URL(fileURLWithPath: setup.path("data.sqlite.enc"))).dropLast(1)
        try cut.write(to: URL(fileURLWithPath: setup.path("cut.enc")))
        let refused = try Self.python([
            script, setup.path("cut.enc"), setup.path("cut.sqlite"), "--password-file", setup.passwordFile,
        ])
        #expect(refused.status == 65)
        #expect(!FileManager.default.fileExists(atPath: setup.path("cut.sqlite")))
        // It checks the key as the documentation says: a wrong password is named as such.
        let wrong = setup.path("wrong")
        try Data("Not It".utf8).write(to: URL(fileURLWithPath: wrong))
        let wrongPassword = try Self.python([
            script, setup.path("data.sqlite.enc"), setup.path("wrong.sqlite"), "--password-file", wrong,
        ])
        #expect(wrongPassword.status == 65)
        #expect(wrongPassword.stderr.contains("refused: wrong password"))
    }

    /// Runs Debian's python3 (with python3-cryptography, which .ci/run installs).
    static func python(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// Starts an export to `big.FORMAT` and returns once its temporary exists, so that a signal
    /// lands mid-export.
    static func startExport(_ format: ExportFormat, _ setup: Setup) throws -> Process {
        let process = try CommandRunner.start(
            [
                "export", "--format", format.rawValue, "--output", setup.path("big.\(format.rawValue)"), "--archive",
                setup.archive,
            ],
            environment: setup.environment)
        try waitForTemporary(in: setup.folder)
        return process
    }

    static func waitForTemporary(in folder: URL) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if names.contains(where: { $0.hasSuffix(".healthprobe-partial") }) { return }
            usleep(20_000)
        }
        Issue.record("the export never started")
    }

    /// Ctrl-C, SIGTERM, a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT) each stop an export
    /// within a second and leave no plaintext beside the output.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aSignalStopsWithinASecondAndLeavesNoFile(_ signalNumber: Int32) throws {
        let setup = try Setup(records: 40_000)
        let process = try Self.startExport(.json, setup)
        usleep(100_000)
        let sent = Date()
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 1.5)
        #expect(process.terminationStatus == 128 + signalNumber)
        #expect(!FileManager.default.fileExists(atPath: setup.path("big.json")))
        #expect(try setup.leftovers().isEmpty)
    }

    @Test func aKilledExportsTemporaryIsGoneAfterTheNextCommand() throws {
        let setup = try Setup(records: 40_000)
        let process = try Self.startExport(.csv, setup)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!(try setup.leftovers().isEmpty))
        let status = try setup.run(["status"])
        #expect(status.status == 0)
        #expect(try setup.leftovers().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.path("big.csv")))
        // The history lists the run it never finished.
        let history = try setup.run(["export", "history"])
        #expect(history.status == 0)
        let runs = history.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(runs.count == 1)
        #expect(runs.first?.contains("csv") == true && runs.first?.contains("interrupted") == true, "\(runs)")
        let json = try setup.run(["export", "history", "--json"])
        #expect(json.stdout.contains("\"outcome\" : \"interrupted\""))
        #expect(!json.stdout.contains("pid"))
    }

    @Test func theScheduleIsSetShownRunAndTurnedOff() throws {
        let setup = try Setup()
        let exports = setup.path("exports")
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let set = try setup.run([
            "export", "schedule", "--every", "weekly", "--at", "07:30", "--format", "csv", "--to", exports,
            "--range", "last-days", "30", "--time-zone", "Europe/Paris",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Weekly at 07:30 (Europe/Paris): csv, last-days 30, to \(exports)"))
        #expect(set.stdout.contains("Next due: "))
        let due = try setup.run(["export", "due"])
        #expect(due.status == 0)
        #expect(due.stdout.hasPrefix("Nothing due; next at "))
        let encryptedWithoutFile = try setup.run([
            "export", "schedule", "--every", "daily", "--at", "07:30", "--format", "csv", "--to", exports, "--encrypt",
        ])
        #expect(encryptedWithoutFile.status == 64)
        #expect(encryptedWithoutFile.stderr.contains("needs --password-file"))
        let off = try setup.run(["export", "schedule", "--off"])
        #expect(off.stdout == "The export schedule is off.\n")
        #expect(try setup.run(["export", "due"]).stdout == "No export schedule.\n")
        let history = try setup.run(["export", "history", "--json"])
        #expect(
            history.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || history.stdout.contains("[]"))
    }
}

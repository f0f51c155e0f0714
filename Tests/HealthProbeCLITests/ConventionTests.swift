import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// The conventions of tools people love: `--version`, and a mistyped command answered with the
/// one meant.
@Suite("Command-line conventions")
struct ConventionTests {
    @Test func versionIsPrinted() throws {
        let outcome = try CommandRunner.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("healthprobe 0."))
    }

    @Test func aMistypedCommandIsAnsweredWithTheNearest() throws {
        let typo = try CommandRunner.run(["chek", "export.zip"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "healthprobe: unknown command 'chek'; did you mean 'check'?\n")
        #expect(try CommandRunner.run(["anomalys"]).stderr.contains("did you mean 'anomalies'?"))

        let folder = try FixtureFiles.temporaryFolder()
        let file = folder.appendingPathComponent("export.zip")
        try Data("x".utf8).write(to: file)
        let forgotten = try CommandRunner.run([file.path])
        #expect(forgotten.status == 64)
        #expect(forgotten.stderr.contains("to check it: healthprobe check \(file.path)"))

        let nothing = try CommandRunner.run(["zzzzzz"])
        #expect(nothing.stderr.contains("the commands are check, demo,"))
    }

    /// Severity in colour on a terminal; plain text when piped, or with `NO_COLOR`.
    @Test(.enabled(if: Platform.isLinux, "util-linux's script gives the real terminal"))
    func coloursOnlyOnATerminalAndNeverWithNoColor() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["demo", "--keep", archive]).status == 0)
        // The demo's critical loss is put back by its end: every anomaly is listed to see it.
        // A terminal says what it is: the test runner's own TERM may be `dumb`.
        let terminal = try ProgressLineTests.onTerminal(
            ["anomalies", "--all", "--archive", archive], columns: 200,
            environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
        #expect(terminal.contains("\u{1B}[1;31mcritical"))
        let plain = try ProgressLineTests.onTerminal(
            ["anomalies", "--all", "--archive", archive], columns: 200,
            environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        #expect(plain.contains("critical") && !plain.contains("\u{1B}[1;31m"))
        let piped = try CommandRunner.run(["anomalies", "--all", "--archive", archive])
        #expect(piped.stdout.contains("critical") && !piped.stdout.contains("\u{1B}["))
    }

    /// `--quiet`: nothing printed; the exit code tells a script what was found.
    @Test func quietPrintsNothingAndTheExitCodeSpeaks() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let first = folder.appendingPathComponent("first.xml")
        let second = folder.appendingPathComponent("second.xml")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 5)).writeXML(to: first)
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 5, omitEveryNth: 20))
            .writeXML(to: second)
        let quiet = try CommandRunner.run(["check", first.path, "--archive", archive, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let found = try CommandRunner.run(["check", second.path, "--archive", archive, "-q", "--fail-on", "warning"])
        #expect(found.status == 3)
        #expect(found.stdout.isEmpty)
        // The exit code says it; no empty "healthprobe: " line beside it.
        #expect(found.stderr.isEmpty, "\(found.stderr)")
    }

    /// `check Downloads`: the export zip saved there is the one checked; a copy of it, or what
    /// unzipping it left beside it, is the same export; two different exports are a question,
    /// asked before the archive is touched.
    @Test func aFolderHoldingTheExportZipIsCheckedThroughIt() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let downloads = folder.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: FixtureFiles.url("alxdrcirilo/export.zip"), to: downloads.appendingPathComponent("export.zip"))
        try Data("notes".utf8).write(to: downloads.appendingPathComponent("notes.txt"))
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let checked = try CommandRunner.run(["check", downloads.path, "--archive", archive])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("Capture 1 of export.zip"))

        // What Safari leaves: the zip, and the folder unzipping it made; and a second copy.
        let unzipped = downloads.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: unzipped, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: FixtureFiles.url("alxdrcirilo/export.xml"), to: unzipped.appendingPathComponent("export.xml"))
        try FileManager.default.copyItem(
            at: FixtureFiles.url("alxdrcirilo/export.zip"), to: downloads.appendingPathComponent("export 2.zip"))
        let same = try CommandRunner.run(["check", downloads.path, "--archive", archive])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.hasPrefix("Capture 2 of Downloads/apple_health_export/export.xml"))

        // Someone else's export unzipped beside it: which one is meant is asked, nothing checked.
        let other = downloads.appendingPathComponent("other_export")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: FixtureFiles.url("dogsheep/export.xml"), to: other.appendingPathComponent("export.xml"))
        let digest = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])
        let two = try CommandRunner.run(["check", downloads.path, "--archive", archive])
        #expect(two.status == 65)
        #expect(
            two.stderr.contains(
                "holds 2 exports (apple_health_export/export.xml, other_export/export.xml); give the one to check"),
            "\(two.stderr)")
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == digest)
        let trail = try ArchiveInspection.strings(archive, "SELECT message FROM auditEntry ORDER BY id DESC LIMIT 1")
        #expect(trail.first?.contains("holds 2 exports") == true, "\(trail)")
    }

    /// A resolution made by mistake is undone; the trail keeps both.
    @Test func aResolvedAnomalyCanBeReopened() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["demo", "--keep", archive]).status == 0)
        #expect(try CommandRunner.run(["resolve", "1", "--archive", archive]).stdout.hasPrefix("Resolved #1"))
        #expect(!(try CommandRunner.run(["anomalies", "--archive", archive]).stdout.contains("#1 ")))
        let reopened = try CommandRunner.run(["resolve", "--reopen", "1", "--archive", archive])
        #expect(reopened.status == 0 && reopened.stdout.hasPrefix("Reopened #1"))
        #expect(try CommandRunner.run(["anomalies", "--archive", archive]).stdout.contains("#1 "))
        // Twice is said so, and changes nothing: one entry in the trail each way.
        let again = try CommandRunner.run(["resolve", "--reopen", "1", "--archive", archive])
        #expect(again.stdout.hasPrefix("#1 was already open (nothing was changed)"))
        let events = try ArchiveInspection.strings(
            archive, "SELECT event FROM auditEntry WHERE event IN ('anomalyResolved', 'anomalyReopened') ORDER BY id")
        #expect(events == ["anomalyResolved", "anomalyReopened"])
    }

    /// `generate` never writes over a file that is there (it may be someone's real export) unless
    /// told to, and `check --help` reads without a run of stray spaces.
    @Test func generateKeepsAFileThatIsThereAndHelpReadsCleanly() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let file = folder.appendingPathComponent("export.zip")
        try Data("mine".utf8).write(to: file)
        let refused = try CommandRunner.run(["generate", file.path, "--records", "10"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("healthprobe: \(file.path) exists (nothing was written); add --force"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
        #expect(try CommandRunner.run(["generate", file.path, "--records", "10", "--force"]).status == 0)
        let help = try CommandRunner.run(["check", "--help"]).stdout
        #expect(!help.contains(":      "), "\(help)")
    }
}

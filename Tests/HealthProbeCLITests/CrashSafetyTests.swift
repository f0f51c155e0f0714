import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// `check` killed with SIGKILL at several points: the archive reopens intact, shows no partial
/// capture, and a re-run stores every record.
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    enum KillPoint: CustomTestStringConvertible, CaseIterable {
        case atStart, earlyInIngest, lateInIngest

        var testDescription: String { "\(self)" }

        /// Kill once the check has done this many bytes of its work (0: at once), as
        /// ``ProcessProgress`` measures it. A first check writes into the archive itself (a
        /// rollback journal, see `ArchiveStore.withBulkLoadJournal`); a later one is measured by
        /// what it has read since it took the archive's write lock.
        var doneBytes: Int {
            switch self {
            case .atStart: 0
            case .earlyInIngest: 1 << 20
            case .lateInIngest: 4 << 20
            }
        }
    }

    static let options = SyntheticExportOptions(elementCount: 20_000, seed: 3)

    @Test(arguments: KillPoint.allCases)
    func killedFirstCheckLeavesNoCaptureAndReRunStoresEverything(_ point: KillPoint) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        let written = try SyntheticExportGenerator(options: Self.options).writeZip(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path

        try Self.killCheck(export.path, archive: archive, at: point)

        if point != .atStart {
            // A first check loads with a rollback journal: the kill leaves it behind, hot.
            #expect(FileManager.default.fileExists(atPath: archive + "-journal"))
        }
        if FileManager.default.fileExists(atPath: archive) {
            #expect(try ArchiveInspection.integrity(archive) == "ok")
            #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 0)
        }
        let rerun = try CommandRunner.run(["check", export.path, "--archive", archive, "--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any]
        let capture = try #require(report?["capture"] as? [String: Any])
        #expect(capture["records"] as? Int == written.elements)
        #expect(capture["new"] as? Int == written.elements)
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM record") == written.elements)
        #expect(try ArchiveInspection.integrity(archive) == "ok")
        #expect(try ArchiveInspection.text(archive, "PRAGMA journal_mode") == "wal")
    }

    @Test func killedSecondCheckLeavesTheArchiveExactlyAsItWas() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let first = folder.appendingPathComponent("first.zip")
        let second = folder.appendingPathComponent("second.zip")
        try SyntheticExportGenerator(options: Self.options).writeZip(to: first)
        var changed = Self.options
        changed.utcOffsetSeconds = 3600
        changed.omitEveryNth = 50
        try SyntheticExportGenerator(options: changed).writeZip(to: second)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", first.path, "--archive", archive]).status == 0)
        let before = try ArchiveInspection.digest(archive)

        try Self.killCheck(second.path, archive: archive, at: .earlyInIngest)

        #expect(try ArchiveInspection.integrity(archive) == "ok")
        #expect(try ArchiveInspection.digest(archive) == before)
        let rerun = try CommandRunner.run(["check", second.path, "--archive", archive, "--json"])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("\"new\" : 0"))
    }

    /// After a first check killed mid-way, the commands that only read find the archive as it
    /// was — no capture, exit 0 — without a repair step (they used to exit 74 until `archive
    /// verify`: only a writable connection may roll back the killed check's journal).
    @Test func readingCommandsWorkAfterAKilledFirstCheck() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        try SyntheticExportGenerator(options: Self.options).writeZip(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        try Self.killCheck(export.path, archive: archive, at: .earlyInIngest)
        for command in [["status"], ["captures"], ["anomalies"], ["audit"]] {
            let outcome = try CommandRunner.run(command + ["--archive", archive])
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 0)
        #expect(!FileManager.default.fileExists(atPath: archive + "-journal"))
    }

    /// Ctrl-C, SIGTERM, a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT) stop a check within a
    /// second or two: one line, exit 128 and the signal, the archive exactly as it was — a first
    /// check's and a later one's alike.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aSignalStopsACheckAndLeavesTheArchiveAsItWas(_ signalNumber: Int32) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let first = folder.appendingPathComponent("first.zip")
        let second = folder.appendingPathComponent("second.zip")
        var options = Self.options
        options.elementCount = 60_000
        try SyntheticExportGenerator(options: options).writeZip(to: first)
        options.utcOffsetSeconds = 3600
        try SyntheticExportGenerator(options: options).writeZip(to: second)
        let archive = folder.appendingPathComponent("archive.sqlite").path

        let stopped = try Self.signalCheck(first.path, archive: archive, signalNumber)
        #expect(stopped.status == 128 + signalNumber)
        #expect(stopped.stderr == "healthprobe: check cancelled; nothing was written\n")
        #expect(try CommandRunner.run(["status", "--archive", archive]).status == 0)
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 0)

        #expect(try CommandRunner.run(["check", first.path, "--archive", archive]).status == 0)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])
        let again = try Self.signalCheck(second.path, archive: archive, signalNumber)
        #expect(again.status == 128 + signalNumber)
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
    }

    /// Starts `check`, sends `signalNumber` once it has written something, and waits.
    static func signalCheck(_ input: String, archive: String, _ signalNumber: Int32) throws -> (
        status: Int32, stderr: String
    ) {
        let errors = Pipe()
        let process = try CommandRunner.start(["check", input, "--archive", archive], stderr: errors)
        try ProcessProgress.wait(untilDone: 1 << 20, by: process, archive: archive)
        #expect(process.isRunning, "the check finished before the signal")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    /// Starts `check`, waits for the kill point, and kills it with SIGKILL.
    static func killCheck(_ input: String, archive: String, at point: KillPoint) throws {
        let process = try CommandRunner.start(["check", input, "--archive", archive])
        if point.doneBytes > 0 { try ProcessProgress.wait(untilDone: point.doneBytes, by: process, archive: archive) }
        #expect(process.isRunning, "the check finished before it could be killed at \(point)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }
}

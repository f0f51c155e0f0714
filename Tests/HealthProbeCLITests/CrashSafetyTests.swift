import Foundation
import HealthProbeKit
import TestSupport
import Testing

/// `check` killed with SIGKILL at several points: the archive reopens intact, shows no partial
/// capture, and a re-run stores every record.
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    enum KillPoint: CustomTestStringConvertible, CaseIterable {
        case atStart, earlyInIngest, lateInIngest

        var testDescription: String { "\(self)" }

        /// Kill once the archive and its write-ahead log have grown by this many bytes (0: at
        /// once). A first check writes into the archive itself (a rollback journal, see
        /// `ArchiveStore.withBulkLoadJournal`), a later one into the write-ahead log.
        var grownBytes: Int {
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

    /// Starts `check`, waits for the kill point, and kills it with SIGKILL.
    static func killCheck(_ input: String, archive: String, at point: KillPoint) throws {
        func size() -> Int {
            [archive, archive + "-wal"].reduce(0) { total, path in
                total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
            }
        }
        let sizeBefore = size()
        let process = try CommandRunner.start(["check", input, "--archive", archive])
        let deadline = Date().addingTimeInterval(60)
        while point.grownBytes > 0, process.isRunning, Date() < deadline {
            if size() - sizeBefore >= point.grownBytes { break }
            usleep(2_000)
        }
        #expect(process.isRunning, "the check finished before it could be killed at \(point)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }
}

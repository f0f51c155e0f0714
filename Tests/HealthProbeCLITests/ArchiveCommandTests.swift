import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// `archive backup`, `archive verify` and `status`, as a user runs them beside a check.
@Suite("Archive backup and verification", .serialized)
struct ArchiveCommandTests {
    @Test func helpOnASubcommandExitsZero() throws {
        let outcome = try CommandRunner.run(["archive", "backup", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("USAGE: healthprobe archive backup"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func backupIsAVerifiedOwnerOnlyCopyThatRefusesToOverwrite() throws {
        let (folder, archive) = try Self.checkedArchive()
        let copy = folder.appendingPathComponent("copy.sqlite").path

        let backup = try CommandRunner.run(["archive", "backup", copy, "--archive", archive])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("Backed up 1 complete capture to"))
        #expect(backup.stdout.contains("verified intact"))
        let permissions = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try ArchiveInspection.digest(copy) == ArchiveInspection.digest(archive))
        // A single file: nothing beside it, nothing left from the copying.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(".copy") || $0.hasPrefix("copy.sqlite-")
        }
        #expect(left.isEmpty)

        let again = try CommandRunner.run(["archive", "backup", copy, "--archive", archive])
        #expect(again.status == 74)
        #expect(again.stderr == "healthprobe: \(copy) exists (nothing was written); add --force to replace it\n")
        #expect(try CommandRunner.run(["archive", "backup", copy, "--force", "--archive", archive]).status == 0)
        let itself = try CommandRunner.run(["archive", "backup", archive, "--force", "--archive", archive])
        #expect(itself.status == 74)
        #expect(itself.stderr.contains("is the archive itself"))

        let verify = try CommandRunner.run(["archive", "verify", "--archive", copy])
        #expect(verify.status == 0)
        #expect(verify.stdout.hasPrefix("Intact: SQLite's integrity check is ok; 1 complete capture;"))
    }

    /// Without a file named, each backup takes a free name: three within one second are three
    /// files, never "exists; add --force" for a name the user never chose (issue 58).
    @Test func backupsWithoutANameNeverCollide() throws {
        let (folder, archive) = try Self.checkedArchive()
        for _ in 0..<3 {
            let backup = try CommandRunner.run(["archive", "backup", "--archive", archive])
            #expect(backup.status == 0, "\(backup.stderr)")
        }
        let copies = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("backups").path
        ).filter { $0.hasPrefix("archive-") && $0.hasSuffix(".sqlite") }
        #expect(copies.count == 3, "\(copies)")
    }

    @Test func verifyNamesWhatIsWrongAndExits65() throws {
        let (_, archive) = try Self.checkedArchive()
        try ArchiveInspection.tamper(
            archive, "DELETE FROM record WHERE id = (SELECT MIN(id) FROM record WHERE type = 'HKWorkoutTypeIdentifier')"
        )

        let verify = try CommandRunner.run(["archive", "verify", "--archive", archive, "--json"])
        #expect(verify.status == 65)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let problems = try #require(result["problems"] as? [String])
        #expect(
            problems.contains {
                $0.contains("workout records but holds")
                    && $0.contains("(HKWorkoutTypeIdentifier): check the latest export again")
            })
        #expect(result["integrity"] as? String == "ok")

        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.contains("damaged when verified"))
    }

    @Test func statusReportsTheLastVerificationWithoutRunningOne() throws {
        let (_, archive) = try Self.checkedArchive()
        let before = try ArchiveInspection.bytes(archive)
        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.contains("not verified yet (`healthprobe archive verify` checks it)"))
        #expect(try ArchiveInspection.bytes(archive) == before, "status wrote to the archive")

        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        let after = try CommandRunner.run(["status", "--archive", archive, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(object["integrity"] as? String == "ok")
        #expect(object["integrityCheckedAt"] != nil)
    }

    /// A backup taken while a second check writes holds exactly the capture completed before it,
    /// and a write that cannot wait for that check says so in one line.
    @Test func backupDuringARunningCheckHoldsWhatWasCompleteBeforeIt() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let first = folder.appendingPathComponent("first.zip")
        let second = folder.appendingPathComponent("second.zip")
        var options = SyntheticExportOptions(elementCount: 60_000, seed: 5)
        try SyntheticExportGenerator(options: options).writeZip(to: first)
        options.omitEveryNth = 40
        options.deviceAddressSeed = 2
        try SyntheticExportGenerator(options: options).writeZip(to: second)
        let archive = folder.appendingPathComponent("a.sqlite").path
        let copy = folder.appendingPathComponent("copy.sqlite").path
        #expect(try CommandRunner.run(["check", first.path, "--archive", archive]).status == 0)

        let check = try CommandRunner.start(["check", second.path, "--archive", archive])
        try ProcessProgress.wait(untilDone: 1 << 20, by: check, archive: archive)
        let backup = try CommandRunner.run(["archive", "backup", copy, "--archive", archive])
        let resolve = try CommandRunner.run(
            ["resolve", "1"], environment: ["HEALTHPROBE_ARCHIVE": archive, "HEALTHPROBE_WAIT": "0.5"])
        #expect(check.isRunning, "the check finished before the backup could run beside it")
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)

        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("Backed up 1 complete capture"))
        #expect(try ArchiveInspection.scalar(copy, "SELECT COUNT(*) FROM capture") == 1)
        #expect(try CommandRunner.run(["archive", "verify", "--archive", copy]).status == 0)
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture WHERE status = 'complete'") == 2)

        #expect(resolve.status == 74)
        #expect(resolve.stderr.hasPrefix("healthprobe: \(archive) is busy: another HealthProbe is writing it"))
        #expect(resolve.stderr.split(separator: "\n").count == 1)
        #expect(!resolve.stderr.contains("SQLite"))
    }

    /// A folder with an archive a check of a small real export made.
    static func checkedArchive() throws -> (folder: URL, archive: String) {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("a.sqlite").path
        let check = try CommandRunner.run(["check", FixtureFiles.url("dogsheep/export.xml").path, "--archive", archive])
        #expect(check.status == 0, "\(check.stderr)")
        return (folder, archive)
    }

}

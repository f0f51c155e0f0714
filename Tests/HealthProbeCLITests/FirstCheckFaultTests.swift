import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// A first check that fails at any write — the disk full, an I/O error, the process killed —
/// while it creates the archive, migrates it or loads the export: every command opens the archive
/// afterwards, and checking the export again stores it whole. (The faults are SQLite's own file
/// system failing its Nth write, `HEALTHPROBE_TEST_FAULT`.)
@Suite("A first check failed at any write")
struct FirstCheckFaultTests {
    @Test(arguments: ["full", "ioerr", "kill"])
    func everyCommandOpensTheArchiveAfterwards(_ kind: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 400, seed: 2)).writeZip(to: export)
        let reference = folder.appendingPathComponent("reference.sqlite").path
        #expect(try CommandRunner.run(["check", export.path, "--archive", reference]).status == 0)
        let held = "SELECT COUNT(*) FROM record"
        // Writes 1 to about 300 fall in the migrations; later ones in the load.
        for write in [1, 30, 80, 150, 220, 290, 330, 400] {
            let archive = folder.appendingPathComponent("archive-\(kind)-\(write).sqlite").path
            let failed = try CommandRunner.run(
                ["check", export.path, "--archive", archive],
                environment: ["HEALTHPROBE_TEST_FAULT": "\(kind):\(write)"])
            // A fault past the check's last write finds it done.
            let faulted = kind == "kill" ? 137 : 74
            #expect(failed.status == faulted || (write > 300 && failed.status == 0), "write \(write): \(failed.stderr)")
            for command in [["status"], ["archive", "verify"], ["captures"]] {
                let opened = try CommandRunner.run(command + ["--archive", archive])
                #expect(opened.status == 0, "\(kind) at write \(write), then \(command): \(opened.stderr)")
            }
            let again = try CommandRunner.run(["check", export.path, "--archive", archive])
            #expect(again.status == 0, "\(kind) at write \(write), checked again: \(again.stderr)")
            #expect(try ArchiveInspection.scalar(archive, held) == ArchiveInspection.scalar(reference, held))
        }
    }

    /// An earlier HealthProbe wrote the archive's identity after its last migration: a creation
    /// cut off between two migrations left an archive it took for someone else's file. Opened
    /// now, it is migrated on and used.
    @Test func anArchiveAnEarlierVersionLeftHalfCreatedIsMigratedOn() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 400, seed: 2)).writeZip(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        _ = try CommandRunner.run(
            ["check", export.path, "--archive", archive], environment: ["HEALTHPROBE_TEST_FAULT": "full:150"])
        let applied = try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM grdb_migrations")
        #expect(applied > 0)
        try ArchiveInspection.tamper(archive, "PRAGMA application_id = 0")

        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM grdb_migrations") > applied)
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)

        // Someone else's database is still refused, and left as it was.
        let foreign = folder.appendingPathComponent("foreign.sqlite").path
        try ArchiveInspection.tamper(
            foreign,
            "CREATE TABLE grdb_migrations (identifier TEXT PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1 notes')"
        )
        let refused = try CommandRunner.run(["status", "--archive", foreign])
        #expect(refused.status == 74)
        #expect(refused.stderr.contains("is not a HealthProbe archive"), "\(refused.stderr)")
    }
}

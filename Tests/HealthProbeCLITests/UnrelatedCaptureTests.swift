import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// Someone else's export, checked by mistake, shares almost nothing with the archive: refused
/// with one line and the archive left as it was, never forty critical losses.
@Suite("An unrelated export after the user's own")
struct UnrelatedCaptureTests {
    @Test func anExportSharingAlmostNothingIsRefusedUnlessAskedFor() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let own = folder.appendingPathComponent("export.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 5)).writeZip(to: own)
        let other = folder.appendingPathComponent("other.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 11)).writeZip(to: other)
        #expect(try CommandRunner.run(["check", own.path, "--archive", archive]).status == 0)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])

        let refused = try CommandRunner.run(["check", other.path, "--archive", archive])
        #expect(refused.status == 65)
        #expect(refused.stdout.isEmpty)
        let line = refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"), "\(line)")
        #expect(line.contains("other.zip (apple_health_export/export.xml) holds 6 of the 3,130 records"), "\(line)")
        #expect(line.contains("records the archive held and would mark"))
        #expect(line.contains("someone else's export or another file, and nothing was written"))
        #expect(line.contains("--allow-unrelated"))
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
        let trail = try CommandRunner.run(["audit", "--json", "--archive", archive])
        #expect(trail.stdout.contains("refused other.zip (apple_health_export/export.xml) holds 6 of the 3,130"))
        // The user's next export is still compared with their own last one.
        let again = try CommandRunner.run(["check", own.path, "--archive", archive, "--json"])
        #expect(again.status == 0, "\(again.stderr)")

        let allowed = try CommandRunner.run(["check", other.path, "--archive", archive, "--allow-unrelated"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 3)
    }
}

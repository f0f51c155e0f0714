import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// An export made before the one last checked — a user who picked the wrong file — is refused
/// with one line, the archive left as it was, never a false critical loss.
@Suite("An older export after a newer one")
struct OlderExportTests {
    @Test func anOlderExportIsRefusedUnlessAskedFor() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        // The same records; the older export stops two thousand samples earlier.
        let newer = folder.appendingPathComponent("newer.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 5)).writeZip(to: newer)
        let older = folder.appendingPathComponent("older.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 1_000, seed: 5)).writeZip(to: older)
        #expect(try CommandRunner.run(["check", newer.path, "--archive", archive]).status == 0)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])

        let refused = try CommandRunner.run(["check", older.path, "--archive", archive])
        #expect(refused.status == 65)
        #expect(refused.stdout.isEmpty)
        let line = refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"), "\(line)")
        #expect(line.contains("older.zip"))
        #expect(line.contains("before the export the archive last checked (capture 1"))
        #expect(line.contains("--allow-older"))
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
        let trail = try CommandRunner.run(["audit", "--json", "--archive", archive])
        #expect(trail.stdout.contains("older than the export last checked"))

        let allowed = try CommandRunner.run(["check", older.path, "--archive", archive, "--allow-older", "--json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture") == 2)
    }
}

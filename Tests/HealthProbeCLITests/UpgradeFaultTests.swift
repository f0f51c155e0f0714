import Foundation
import TestSupport
import Testing

/// An archive of an earlier version (schema "v3 live path", `version3-archive.sqlite`) upgraded by
/// a check that fails at any write — the disk full, an I/O error, the process killed — while it
/// migrates or checks: every command opens the archive afterwards, and the check made again ends
/// where an upgrade without a fault ends (issue 52).
@Suite("An upgrade failed at any write")
struct UpgradeFaultTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../HealthProbeKitTests/Fixtures").standardized

    static func copy(to path: String) throws {
        try FileManager.default.copyItem(
            atPath: fixtures.appendingPathComponent("version3-archive.sqlite").path, toPath: path)
    }

    @Test(arguments: ["full", "ioerr", "kill"])
    func everyCommandOpensTheUpgradedArchiveAfterwards(_ kind: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = Self.fixtures.appendingPathComponent("version3-export.zip").path
        let reference = folder.appendingPathComponent("reference.sqlite").path
        try Self.copy(to: reference)
        let upgraded = try CommandRunner.run(["check", export, "--archive", reference])
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let state = """
            SELECT (SELECT COUNT(*) FROM record) || ' records, ' || (SELECT COUNT(*) FROM capture WHERE status = 'complete')
                || ' captures, ' || (SELECT COUNT(*) FROM grdb_migrations) || ' migrations'
            """
        let expected = try ArchiveInspection.text(reference, state)
        for write in [1, 10, 40, 90, 160, 260, 400] {
            let archive = folder.appendingPathComponent("archive-\(kind)-\(write).sqlite").path
            try Self.copy(to: archive)
            let failed = try CommandRunner.run(
                ["check", export, "--archive", archive], environment: ["HEALTHPROBE_TEST_FAULT": "\(kind):\(write)"])
            #expect([0, 74, 137].contains(failed.status), "write \(write): \(failed.status) \(failed.stderr)")
            for command in [["status"], ["archive", "verify"], ["captures"], ["anomalies"]] {
                let opened = try CommandRunner.run(command + ["--archive", archive])
                #expect(opened.status == 0, "\(kind) at write \(write), then \(command): \(opened.stderr)")
            }
            // A kill after the capture was committed (at a checkpoint, say) finds it landed.
            let complete = "SELECT COUNT(*) FROM capture WHERE status = 'complete'"
            if try ArchiveInspection.scalar(archive, complete) < ArchiveInspection.scalar(reference, complete) {
                let again = try CommandRunner.run(["check", export, "--archive", archive])
                #expect(again.status == 0, "\(kind) at write \(write), checked again: \(again.stderr)")
            }
            let found = try ArchiveInspection.text(archive, state)
            #expect(
                found == expected,
                "\(kind) at write \(write): \(failed.status), \(found ?? "-") against \(expected ?? "-")")
        }
    }
}

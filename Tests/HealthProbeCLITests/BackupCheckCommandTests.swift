import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// `healthprobe check` given an iPhone's Health database — the file, its folder, or an encrypted
/// backup with its password from an owner-only file — after an export of the same phone: what
/// vanished, what was deleted in Health and what is new, said as a user reads it.
@Suite("Command: check a backup")
struct BackupCheckCommandTests {
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        case file, folder, encryptedBackup
        var testDescription: String { rawValue }
    }

    static let password = "Test password 2000"
    /// 2000-01-26 12:00 UTC, the day after the export.
    static let deletedAt = 948_888_000.0

    /// An archive holding the baseline's export, and the changed data as a database, in `form`.
    static func scene(_ form: Form) throws -> (archive: String, path: String, folder: URL) {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let baseline = PairedHealthData.baseline()
        let export = folder.appendingPathComponent("export.xml")
        try baseline.writeExport(to: export)
        let first = try CommandRunner.run(["check", export.path, "--archive", archive, "--json"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let changed = baseline.withVanishedDeletedAndNew(deletedAt: deletedAt)
        let health = folder.appendingPathComponent("Health")
        try changed.writeDatabase(to: health)
        switch form {
        case .file: return (archive, health.appendingPathComponent("healthdb_secure.sqlite").path, folder)
        case .folder: return (archive, folder.path, folder)
        case .encryptedBackup:
            let backup = folder.appendingPathComponent("00008101-TESTDEVICE01")
            try EncryptedBackupFixture.write(healthFolder: health, to: backup, password: password)
            return (archive, backup.path, folder)
        }
    }

    static func passwordFile(in folder: URL, mode: Int16 = 0o600) throws -> String {
        let file = folder.appendingPathComponent("password.txt")
        try Data((password + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file.path
    }

    @Test(arguments: Form.allCases)
    func aBackupTellsVanishedFromDeletedAndNew(form: Form) throws {
        let (archive, path, folder) = try Self.scene(form)
        var arguments = ["check", path, "--archive", archive, "--json"]
        if form == .encryptedBackup { arguments += ["--password-file", try Self.passwordFile(in: folder)] }
        let outcome = try CommandRunner.run(arguments)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let capture = report?["capture"] as? [String: Any]
        #expect(capture?["origin"] as? String == "backup")
        #expect(capture?["new"] as? Int == 15)
        #expect(capture?["gone"] as? Int == 50)
        #expect(capture?["deletedInHealth"] as? Int == 20)
        #expect(capture?["notCompared"] as? Int == 2)
        let days = capture?["deletedInHealthByDay"] as? [[String: Any]]
        #expect(days?.count == 1)
        #expect(days?.first?["day"] as? String == "2000-01-26")
        #expect(days?.first?["count"] as? Int == 20)
        let anomalies = report?["anomalies"] as? [[String: Any]] ?? []
        #expect(anomalies.map { $0["type"] as? String } == ["silent_deletion"])
        #expect(anomalies.first?["sampleType"] as? String == PairedHealthData.heartRate)
        #expect(anomalies.first?["recordCount"] as? Int == 30)
        #expect(!outcome.stdout.contains(Self.password) && !outcome.stderr.contains(Self.password))

        let audit = try CommandRunner.run(["audit", "--archive", archive])
        #expect(audit.stdout.contains("20 HKQuantityTypeIdentifierStepCount records deleted in Health on 2000-01-26"))
    }

    @Test func theTextSaysWhatWasDeletedAndWhatWasNotCompared() throws {
        let (archive, path, _) = try Self.scene(.file)
        let outcome = try CommandRunner.run(["check", path, "--archive", archive])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("Capture 2 of healthdb_secure.sqlite, its newest entry 2000-01-26 12:00 UTC"))
        #expect(outcome.stdout.contains("records 523  new 15  unchanged 508  gone 50"))
        #expect(outcome.stdout.contains("deleted in Health 20: 20 StepCount on 2000-01-26"))
        #expect(outcome.stdout.contains("not compared 2: kinds a Health database does not hold"))
        #expect(outcome.stdout.contains("30 heart rate records vanished"))
    }

    @Test func aWrongPasswordOrAnOpenPasswordFileIsRefusedAndChangesNothing() throws {
        let (archive, path, folder) = try Self.scene(.encryptedBackup)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])
        // Its own temporary folder, where nothing else works meanwhile.
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let environment = ["TMPDIR": temporary.path]
        let wrong = folder.appendingPathComponent("wrong.txt")
        try Data("not it\n".utf8).write(to: wrong)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrong.path)
        let refused = try CommandRunner.run(
            ["check", path, "--archive", archive, "--password-file", wrong.path], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(
            refused.stderr.contains("00008101-TESTDEVICE01: the backup's password is not right"), "\(refused.stderr)")
        let open = try Self.passwordFile(in: folder, mode: 0o644)
        let usage = try CommandRunner.run(
            ["check", path, "--archive", archive, "--password-file", open], environment: environment)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("can be read by others"))
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "no copy is left behind")
    }

    /// `archive verify` holds the archive intact, and `archive backup` copies it, after any order of
    /// exports and Health databases (an export and a backup each become the latest capture the
    /// other is compared with), changed data included.
    @Test(arguments: [
        ["export", "backup"], ["backup", "export"], ["export", "backup", "export"], ["backup", "backup"],
        ["export", "changed-backup", "changed-export"], ["backup", "changed-export", "backup"],
    ])
    func theArchiveVerifiesAfterEveryOrderOfOrigins(order: [String]) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let baseline = PairedHealthData.baseline()
        let changed = baseline.withVanishedDeletedAndNew(deletedAt: Self.deletedAt)
        for (index, step) in order.enumerated() {
            let data = step.hasPrefix("changed") ? changed : baseline
            let input: String
            if step.hasSuffix("export") {
                let file = folder.appendingPathComponent("export-\(index).xml")
                try data.writeExport(to: file)
                input = file.path
            } else {
                let health = folder.appendingPathComponent("Health-\(index)")
                try data.writeDatabase(to: health)
                input = health.appendingPathComponent("healthdb_secure.sqlite").path
            }
            let check = try CommandRunner.run(["check", input, "--archive", archive])
            #expect(check.status == 0, "\(step): \(check.stderr)")
            let verify = try CommandRunner.run(["archive", "verify", "--archive", archive])
            #expect(verify.status == 0, "after \(order[...index]): \(verify.stdout)")
            #expect(verify.stdout.hasPrefix("Intact:"))
        }
        let copy = folder.appendingPathComponent("copy.sqlite").path
        let backup = try CommandRunner.run(["archive", "backup", copy, "--archive", archive])
        #expect(backup.status == 0, "\(backup.stderr)")
    }
}

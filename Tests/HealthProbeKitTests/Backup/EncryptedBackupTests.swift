import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// An encrypted iPhone backup opened with its password: the Health database read from it as from
/// the files themselves, nothing decrypted left anywhere, a wrong password or a damaged backup
/// refused in one line; and the backups the fixture writes read by an independent decrypter.
@Suite("Health database: encrypted backups")
struct EncryptedBackupTests {
    static let password = "Test password 2000"

    /// A Health database pair and the encrypted backup holding it, with a private work folder.
    static func backup() throws -> (health: URL, backup: URL, work: URL) {
        let root = try FixtureFiles.temporaryFolder()
        let health = root.appendingPathComponent("health")
        let backup = root.appendingPathComponent("00008101-TESTDEVICE01")
        let work = root.appendingPathComponent("work")
        for folder in [health, work] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try HealthDatabaseFixture.write(to: health, samples: HealthDatabaseReaderTests.samples())
        try EncryptedBackupFixture.write(healthFolder: health, to: backup, password: password)
        return (health, backup, work)
    }

    static func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func theHealthDatabaseReadsAsFromItsFilesAndNothingIsLeft() throws {
        let (health, backup, work) = try Self.backup()
        let backupBefore = try Self.contents(backup)
        var rounds = 0
        var fromBackup: [HealthSample] = []
        do {
            let reader = try HealthDatabaseReader(
                backup: backup, password: Array(Self.password.utf8), workFolder: work, deriving: { rounds = $0 })
            try reader.forEachSample { fromBackup.append($0) }
            #expect(reader.layout.hasSourceDatabase)
        }
        var fromFiles: [HealthSample] = []
        try HealthDatabaseReader(path: health.path).forEachSample { fromFiles.append($0) }
        #expect(fromBackup == fromFiles)
        #expect(fromBackup.count == 4)
        #expect(rounds == 110, "the rounds are said before they run")
        #expect(try Self.contents(work).isEmpty, "no decrypted file is left")
        #expect(try Self.contents(backup) == backupBefore, "nothing is written beside the backup")
    }

    @Test func aWrongPasswordIsRefusedAndLeavesNothing() throws {
        let (_, backup, work) = try Self.backup()
        #expect(throws: PhoneBackupError.wrongPassword) {
            try HealthDatabaseReader(backup: backup, password: Array("not it".utf8), workFolder: work)
        }
        #expect(try Self.contents(work).isEmpty)
        #expect(PhoneBackupError.wrongPassword.message.hasPrefix("the backup's password is not right: give the one"))
    }

    @Test func aDamagedOrUnencryptedBackupIsRefusedInOneLine() throws {
        let (_, backup, work) = try Self.backup()
        // A file stored in the backup cut short: its padding no longer checks.
        let stored = try FileManager.default.subpathsOfDirectory(atPath: backup.path)
            .first { $0.count == 43 && $0.contains("/") }
        let file = backup.appendingPathComponent(try #require(stored))
        let data = try Data(contentsOf: file)
        try data.prefix(data.count - 16).write(to: file)
        #expect(throws: PhoneBackupError.self) {
            try HealthDatabaseReader(backup: backup, password: Array(Self.password.utf8), workFolder: work)
        }
        #expect(try Self.contents(work).isEmpty)
        // A backup whose Manifest.plist says it is not encrypted.
        let plain = try FixtureFiles.temporaryFolder()
        try PropertyListSerialization.data(fromPropertyList: ["IsEncrypted": false], format: .xml, options: 0)
            .write(to: plain.appendingPathComponent("Manifest.plist"))
        #expect(throws: PhoneBackupError.notEncrypted) {
            try HealthDatabaseReader(backup: plain, password: Array(Self.password.utf8), workFolder: work)
        }
    }

    /// `iphone-backup-decrypt` (PyPI, provisioned at first use: `PythonTool`) reads what the
    /// fixture wrote: the fixture's encryption and HealthProbe's decryption cannot share a mistake.
    @Test func anIndependentDecrypterReadsTheFixturesBackups() throws {
        let (health, backup, work) = try Self.backup()
        let output = work.appendingPathComponent("healthdb_secure.sqlite")
        let script = """
            from sys import argv
            from iphone_backup_decrypt import EncryptedBackup
            backup = EncryptedBackup(backup_directory=argv[1], passphrase=argv[2])
            backup.extract_file(relative_path="Health/healthdb_secure.sqlite", output_filename=argv[3])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try PythonTool.backupDecrypt.python())
        process.arguments = ["-c", script, backup.path, Self.password, output.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            try Data(contentsOf: output)
                == Data(contentsOf: health.appendingPathComponent("healthdb_secure.sqlite")))
    }
}

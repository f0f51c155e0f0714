import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

/// Damaged and hostile backups (issue 30): rows of impossible types and values, property lists
/// that overflow or multiply, signals while a backup is decrypted — no trap, no hang, no
/// decrypted copy left behind.
@Suite("Hostile backups")
struct HostileBackupTests {
    static let password = "Test password 2000"

    /// A Health database whose rows hold what no phone writes: no type, a date as text, dates of
    /// ±1e300 and infinity, a category value of 1e300, a source row whose name is a number.
    @Test func impossibleRowsAreCountedAndTheRestIsChecked() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let health = folder.appendingPathComponent("Health")
        let data = PairedHealthData.baseline(days: 3)
        try data.writeDatabase(to: health)
        let queue = try DatabaseQueue(path: health.appendingPathComponent("healthdb_secure.sqlite").path)
        let ids = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT data_id FROM samples ORDER BY data_id") }
        try queue.write { db in
            try db.execute(sql: "UPDATE samples SET data_type = NULL WHERE data_id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE samples SET start_date = 'yesterday' WHERE data_id = ?", arguments: [ids[1]])
            try db.execute(sql: "UPDATE samples SET start_date = 1e300 WHERE data_id = ?", arguments: [ids[2]])
            try db.execute(sql: "UPDATE samples SET end_date = -1e300 WHERE data_id = ?", arguments: [ids[3]])
            try db.execute(sql: "UPDATE objects SET creation_date = 9e999 WHERE data_id = ?", arguments: [ids[4]])
            try db.execute(sql: "UPDATE quantity_samples SET quantity = 'many' WHERE data_id = ?", arguments: [ids[5]])
            try db.execute(sql: "UPDATE objects SET uuid = 42 WHERE data_id = ?", arguments: [ids[6]])
            try db.execute(sql: "UPDATE objects SET creation_date = 'then' WHERE type = 2")
        }
        try queue.close()
        let sources = try DatabaseQueue(path: health.appendingPathComponent("healthdb.sqlite").path)
        try sources.write { db in try db.execute(sql: "UPDATE sources SET name = 12345") }
        try sources.close()

        let archive = folder.appendingPathComponent("archive.sqlite").path
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let files = ["healthdb_secure.sqlite", "healthdb.sqlite"].map { health.appendingPathComponent($0) }
        let before = try files.map { try Data(contentsOf: $0) }
        let outcome = try CommandRunner.run(
            ["check", health.path, "--archive", archive], environment: ["TMPDIR": temporary.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Nothing given was changed, and no copy is left behind.
        #expect(try files.map { try Data(contentsOf: $0) } == before)
        #expect(try Self.copies(in: temporary).isEmpty)
        #expect(
            (outcome.stdout + outcome.stderr).contains(
                "7 samples could not be read (no type, an impossible date or value)"))
        #expect(
            try ArchiveInspection.scalar(
                archive, "SELECT json_extract(elementCounts, '$.unreadableSamples') FROM capture") == 7)
        let records = try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM record")
        #expect(records == data.samples.count - 7)
    }

    /// A binary property list whose offset table is said to start at 2^63 − 2, and one of a
    /// few hundred bytes whose objects refer to each other two by two, 60 levels deep.
    @Test(arguments: ["overflow", "fan-out"])
    func aHostileManifestIsRefusedInOneLine(_ shape: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let backup = folder.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let list = shape == "overflow" ? Self.overflowingList() : Self.fanOutList(depth: 60)
        try Data(list).write(to: backup.appendingPathComponent("Manifest.plist"))
        let passwordFile = folder.appendingPathComponent("password")
        try Data(Self.password.utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o600)
        let archive = folder.appendingPathComponent("archive.sqlite").path

        let listed = try CommandRunner.run(["backups", backup.path, "--json"])
        #expect(listed.status == 0 || listed.status == 65, "\(listed.stderr)")
        let checked = try CommandRunner.run(
            ["check", backup.path, "--archive", archive, "--password-file", passwordFile.path])
        #expect(checked.status == 65)
        #expect(checked.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    /// `Info.plist` dates no backup has: NaN, 1e300, infinity — listed without a date, never a
    /// year 506713.
    @Test func impossibleBackupDatesAreLeftOut() throws {
        let folder = try FixtureFiles.temporaryFolder()
        for (index, date) in ["nan", "1e300", "inf"].enumerated() {
            let backup = folder.appendingPathComponent("backup-\(index)")
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            let info = """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>Device Name</key><string>iPhone-TESTDEVICE</string>
                <key>Last Backup Date</key><real>\(date)</real></dict></plist>
                """
            try Data(info.utf8).write(to: backup.appendingPathComponent("Info.plist"))
        }
        let listed = try CommandRunner.run(["backups", folder.path, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.components(separatedBy: "iPhone-TESTDEVICE").count == 4)
        #expect(!listed.stdout.contains("\"date\""))
    }

    /// Ctrl-C, SIGTERM, a closed terminal (SIGHUP) or Ctrl-\ (SIGQUIT) while the backup's password
    /// is derived and its files decrypted: one line, exit 128 and the signal, no decrypted copy
    /// left, the archive as it was.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aSignalLeavesNoDecryptedCopy(_ signalNumber: Int32) throws {
        let (folder, backup, passwordFile) = try Self.slowBackup()
        let temporary = folder.appendingPathComponent("tmp")
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let errors = Pipe()
        let process = try CommandRunner.start(
            ["check", backup.path, "--archive", archive, "--password-file", passwordFile.path],
            environment: ["TMPDIR": temporary.path], stderr: errors)
        #expect(Self.waitForCopy(in: temporary, while: process))
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signalNumber)
        #expect(stderr.hasSuffix("check cancelled; nothing was written, and no copy of the database is left\n"))
        #expect(try Self.copies(in: temporary).isEmpty)
    }

    /// A check killed outright leaves its copy; the next command, whichever it is, removes it
    /// before anything else.
    @Test(arguments: [(["check", "missing.zip"], 65), (["status"], 74), (["--help"], 0)] as [([String], Int32)])
    func theNextCommandRemovesWhatAKilledCheckLeft(next command: [String], exits expected: Int32) throws {
        let (folder, backup, passwordFile) = try Self.slowBackup()
        let temporary = folder.appendingPathComponent("tmp")
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let process = try CommandRunner.start(
            ["check", backup.path, "--archive", archive, "--password-file", passwordFile.path],
            environment: ["TMPDIR": temporary.path])
        #expect(Self.waitForCopy(in: temporary, while: process))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try Self.copies(in: temporary).count == 1)

        // The killed check never reached the archive: `status` finds none (74), and says so.
        let archiveOption = command == ["--help"] ? [] : ["--archive", archive]
        let next = try CommandRunner.run(command + archiveOption, environment: ["TMPDIR": temporary.path], in: folder)
        #expect(next.status == expected, "\(next.stderr)")
        #expect(try Self.copies(in: temporary).isEmpty)
    }

    /// An encrypted backup whose password takes a second or more to derive (by default).
    static func slowBackup(rounds: (sha256: Int, sha1: Int) = (sha256: 4_000_000, sha1: 1)) throws -> (
        folder: URL, backup: URL, passwordFile: URL
    ) {
        let folder = try FixtureFiles.temporaryFolder()
        let health = folder.appendingPathComponent("health")
        try PairedHealthData.baseline().writeDatabase(to: health)
        let backup = folder.appendingPathComponent("backup")
        try EncryptedBackupFixture.write(
            healthFolder: health, to: backup, password: password, rounds: rounds)
        let passwordFile = folder.appendingPathComponent("password")
        try Data(password.utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o600)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return (folder, backup, passwordFile)
    }

    static func copies(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("healthprobe-db-") }
    }

    static func waitForCopy(in folder: URL, while process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline {
            if let found = try? copies(in: folder), !found.isEmpty { return true }
            usleep(5_000)
        }
        return false
    }

    /// `bplist00`, one object, and a trailer whose offset table starts at 2^63 − 2.
    static func overflowingList() -> [UInt8] {
        var bytes = Array("bplist00".utf8) + [0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        return bytes
    }

    /// A dictionary whose one value is an array of two references to the next array, and so on
    /// `depth` times: a few hundred bytes that decode to 2^depth objects when references are
    /// followed each time they are met.
    static func fanOutList(depth: Int) -> [UInt8] {
        // Objects: 0 the key "k", 1 the top dictionary, 2…depth+1 arrays, depth+2 a string.
        var objects: [[UInt8]] = [[0x51, UInt8(ascii: "k")], [0xD1, 0, 2]]
        for level in 0..<depth {
            let next = UInt8(level == depth - 1 ? depth + 2 : level + 3)
            objects.append([0xA2, next, next])
        }
        objects.append([0x51, UInt8(ascii: "x")])
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        return bytes
    }
}

/// What is wrong with a backup or database, said in the project's words, exit 65, never the
/// archive blamed for the input.
@Suite("Hostile backups: messages")
struct BackupMessageTests {
    @Test func eachProblemIsNamedWhereItIs() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        func check(_ path: URL, _ extra: [String] = []) throws -> (status: Int32, stderr: String) {
            let outcome = try CommandRunner.run(["check", path.path, "--archive", archive] + extra)
            return (outcome.status, outcome.stderr)
        }
        // A sources file that is not a database: the input's fault, not the archive's.
        let garbage = folder.appendingPathComponent("garbage")
        try PairedHealthData.baseline(days: 2).writeDatabase(to: garbage)
        try Data(repeating: 0x5A, count: 5_000).write(to: garbage.appendingPathComponent("healthdb.sqlite"))
        let sources = try check(garbage)
        #expect(sources.status == 65)
        #expect(sources.stderr.contains("healthdb.sqlite, beside healthdb_secure.sqlite to name its sources, is not"))

        // A folder where the database should be.
        let folderInstead = folder.appendingPathComponent("folder-instead")
        try FileManager.default.createDirectory(
            at: folderInstead.appendingPathComponent("healthdb_secure.sqlite"), withIntermediateDirectories: true)
        let directory = try check(folderInstead)
        #expect(directory.status == 65)
        #expect(directory.stderr.contains("healthdb_secure.sqlite is a folder, where the database file should be"))

        // A backup whose Manifest.plist cannot be read is damaged, not "not encrypted".
        let damaged = folder.appendingPathComponent("damaged")
        try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        try Data("not a property list".utf8).write(to: damaged.appendingPathComponent("Manifest.plist"))
        let manifest = try check(damaged)
        #expect(manifest.status == 65)
        #expect(manifest.stderr.contains("its Manifest.plist is damaged"))
        #expect(!FileManager.default.fileExists(atPath: archive))
    }
}

/// A stored file longer than the backup's record of it is damage: never decrypted into the
/// temporary folder, however long it is.
@Suite("Hostile backups: declared sizes")
struct DeclaredSizeTests {
    @Test func aStoredFileLongerThanDeclaredIsRefused() throws {
        let (folder, backup, passwordFile) = try HostileBackupTests.slowBackup(rounds: (sha256: 100, sha1: 1))
        // The largest stored file is the Health database: 64 KiB more of cipher blocks.
        let stored = try FileManager.default.subpathsOfDirectory(atPath: backup.path)
            .map { backup.appendingPathComponent($0) }
            .filter { $0.lastPathComponent.count == 40 }
            .max { size($0) < size($1) }
        let file = try #require(stored)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x41, count: 65_536))
        try handle.close()
        let temporary = folder.appendingPathComponent("tmp")
        let outcome = try CommandRunner.run(
            [
                "check", backup.path, "--archive", folder.appendingPathComponent("a.sqlite").path, "--password-file",
                passwordFile.path,
            ], environment: ["TMPDIR": temporary.path])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("longer than the backup says"))
        #expect(try HostileBackupTests.copies(in: temporary).isEmpty)
    }

    /// A record declaring a size near 2^63 is a number like any other: the file is decrypted
    /// within what it holds, nothing traps, and no decrypted copy is left.
    @Test func aDeclaredSizeNearTheLargestNumberIsReadSafely() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let health = folder.appendingPathComponent("health")
        try PairedHealthData.baseline(days: 2).writeDatabase(to: health)
        let backup = folder.appendingPathComponent("backup")
        try EncryptedBackupFixture.write(
            healthFolder: health, to: backup, password: HostileBackupTests.password, declaredSize: Int64.max - 3)
        let passwordFile = folder.appendingPathComponent("password")
        try Data((HostileBackupTests.password + "\n").utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o600)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let outcome = try CommandRunner.run(
            [
                "check", backup.path, "--archive", folder.appendingPathComponent("a.sqlite").path, "--password-file",
                passwordFile.path,
            ], environment: ["TMPDIR": temporary.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Capture 1"), "\(outcome.stdout)")
        #expect(try HostileBackupTests.copies(in: temporary).isEmpty)
    }

    func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}

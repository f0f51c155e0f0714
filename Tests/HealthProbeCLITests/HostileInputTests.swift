import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

/// Inputs that try to reach outside themselves (issue 30): a Health database that is a link out
/// of the folder given, or a pipe, is refused in one line, and nothing outside is changed.
@Suite("Hostile inputs")
struct HostileInputTests {
    /// A Health database outside the folder given, with a write-ahead log not yet checkpointed:
    /// what SQLite would write into the database, and delete, if it ever opened it.
    static func outsideDatabase(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("source")
        try PairedHealthData.baseline().writeDatabase(to: source)
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let database = source.appendingPathComponent("healthdb_secure.sqlite")
        let queue = try DatabaseQueue(path: database.path)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(
                sql: "CREATE TABLE pending (value TEXT); INSERT INTO pending VALUES ('not yet checkpointed')")
            // Copied while the log still holds the write.
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(
                    atPath: database.path + suffix,
                    toPath: outside.appendingPathComponent("healthdb_secure.sqlite").path + suffix)
            }
        }
        try queue.close()
        return outside.appendingPathComponent("healthdb_secure.sqlite")
    }

    @Test func aDatabaseLinkedFromOutsideIsRefusedAndLeftAlone() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let outside = try Self.outsideDatabase(in: folder)
        let before = try [outside.path, outside.path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let given = folder.appendingPathComponent("given/Health")
        try FileManager.default.createDirectory(at: given, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: given.appendingPathComponent("healthdb_secure.sqlite").path, withDestinationPath: outside.path)
        let archive = folder.appendingPathComponent("archive.sqlite").path

        let outcome = try CommandRunner.run(["check", given.deletingLastPathComponent().path, "--archive", archive])
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr.contains(
                "healthdb_secure.sqlite is not a regular file inside what was given (a link leading out of it"))
        let after = try [outside.path, outside.path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before, "the database outside the input was changed")
    }

    @Test func aLinkInsideTheFolderIsFollowedToItsBytes() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let given = folder.appendingPathComponent("given")
        try PairedHealthData.baseline().writeDatabase(to: given.appendingPathComponent("real"))
        let health = given.appendingPathComponent("Health")
        try FileManager.default.createDirectory(at: health, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: health.appendingPathComponent("healthdb_secure.sqlite").path,
            withDestinationPath: "../real/healthdb_secure.sqlite")
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let outcome = try CommandRunner.run(["check", given.path, "--archive", archive])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test func aPipeInPlaceOfTheDatabaseIsRefusedAtOnce() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let given = folder.appendingPathComponent("given")
        try FileManager.default.createDirectory(at: given, withIntermediateDirectories: true)
        #expect(mkfifo(given.appendingPathComponent("healthdb_secure.sqlite").path, 0o600) == 0)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let outcome = try CommandRunner.run(["check", given.path, "--archive", archive])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("is not a regular file"))
    }
}

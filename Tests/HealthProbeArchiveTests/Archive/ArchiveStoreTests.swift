import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

@Suite("Opening the archive")
struct ArchiveStoreTests {
    @Test func newArchiveIsOwnerOnly() throws {
        let support = try ArchiveTestSupport()
        _ = try support.openArchive()
        let permissions =
            try FileManager.default.attributesOfItem(atPath: support.archivePath)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
    }

    /// An archive where none can be made (here under a plain file) is refused saying where and
    /// why; the kit names no flag (the command line adds its hint).
    @Test func anArchiveThatCannotBeCreatedSaysWhereElseToPutIt() throws {
        let support = try ArchiveTestSupport()
        let file = support.folder.appendingPathComponent("plain-file")
        try Data("not a folder".utf8).write(to: file)
        let path = file.appendingPathComponent("archive.sqlite").path
        #expect {
            _ = try ArchiveStore.open(at: path)
        } throws: { error in
            let message = (error as? ArchiveError)?.errorDescription ?? ""
            return message.hasPrefix("cannot create the archive at \(path): ") && !message.contains("--")
        }
    }

    @Test func archiveWrittenByNewerVersionIsRefusedUntouched() throws {
        let support = try ArchiveTestSupport()
        do {
            let store = try support.openArchive()
            try store.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future')")
            }
        }
        let before = try ArchiveTestSupport.contentDigest(of: support.archivePath)
        #expect(
            throws: ArchiveError.writtenByNewerVersion(
                path: support.archivePath, unknownMigrations: ["v99 from the future"])
        ) {
            try support.openArchive()
        }
        #expect(try ArchiveTestSupport.contentDigest(of: support.archivePath) == before)
    }

    @Test func fileThatIsNotAnArchiveIsRefused() throws {
        let support = try ArchiveTestSupport()
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: support.archivePath))
        #expect(throws: ArchiveError.notAnArchive(path: support.archivePath)) { try support.openArchive() }
        let other = support.folder.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(throws: ArchiveError.notAnArchive(path: other)) { try ArchiveStore.open(at: other) }
    }

    /// A first check holds the archive (in rollback-journal mode) until it commits: another
    /// command is told so, in words, instead of seeing SQLite's "database is locked".
    @Test func anArchiveBeingLoadedIsReportedBusy() throws {
        let support = try ArchiveTestSupport()
        _ = try support.openArchive()
        var holdsTheLock = Configuration()
        holdsTheLock.allowsUnsafeTransactions = true
        let loader = try DatabaseQueue(path: support.archivePath, configuration: holdsTheLock)
        try loader.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "BEGIN EXCLUSIVE")
        }
        #expect(throws: ArchiveError.busy(path: support.archivePath)) { try support.openArchive() }
        try loader.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try loader.close()
        #expect(try support.openArchive().path == support.archivePath)
    }

    /// A check that meets another writer holding the archive says so, and changes nothing.
    @Test func aCheckWhileAnotherWritesIsReportedBusy() throws {
        let support = try ArchiveTestSupport()
        let body = FixtureFiles.stepRecord
        let url = try FixtureFiles.write(FixtureFiles.export(body), named: "export.xml", in: support.folder)
        let store = try support.openArchive()
        _ = try support.check(url, in: store)
        var holdsTheLock = Configuration()
        holdsTheLock.allowsUnsafeTransactions = true
        let writer = try DatabaseQueue(path: support.archivePath, configuration: holdsTheLock)
        try writer.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        #expect(throws: ArchiveError.busy(path: support.archivePath)) { try support.check(url, in: store) }
        try writer.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try writer.close()
        let captures = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") }
        #expect(captures == 1)
    }

    @Test func interruptedCaptureIsRemovedOnNextOpen() throws {
        let support = try ArchiveTestSupport()
        do {
            let store = try support.openArchive()
            try store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO capture (origin, scope, status, startedAt) VALUES ('export', 'full', 'running', 0)"
                )
            }
        }
        let store = try support.openArchive()
        let running = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") }
        #expect(running == 0)
        #expect(try store.fetchAuditEntries().contains { $0.event == "captureAbandoned" })
    }
}

import Foundation
import HealthProbeKit
import HealthProbeScreens
import TestSupport
import Testing

/// The phone's scheduled export, set up as Settings sets it up: the schedule in the archive, the
/// password where the app keeps passwords (the Keychain on iPhone; here a dictionary standing in
/// for it), and the export the schedule then runs, encrypted with that password.
@Suite("Settings: the scheduled export")
@MainActor
struct ExportScheduleModelTests {
    /// Passwords by account, as the Keychain keeps them.
    final class Passwords: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String: [UInt8]] = [:]

        subscript(account: String) -> [UInt8]? { lock.withLock { items[account] } }

        var store: ExportScheduleModel.PasswordStore {
            ExportScheduleModel.PasswordStore(
                save: { password, account in self.lock.withLock { self.items[account] = password } },
                delete: { account in _ = self.lock.withLock { self.items.removeValue(forKey: account) } })
        }

        func read(_ account: String) throws -> [UInt8] {
            guard let password = self[account] else { throw CocoaError(.fileNoSuchFile) }
            return password
        }
    }

    let archive: AuditedArchive
    let passwords = Passwords()
    let exports: URL
    let scheduler: ExportScheduler
    let model: ExportScheduleModel

    /// The schedule is set at 2000-01-01 12:00 UTC; the clock the scheduler runs by is a week on.
    init() throws {
        archive = try AuditedArchive(records: 300)
        exports = archive.folder.appendingPathComponent("Exports", isDirectory: true)
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let passwords = passwords
        scheduler = ExportScheduler(
            archive: try archive.open(), clock: { Date(timeIntervalSince1970: 946_728_000 + 7 * 86_400) },
            files: PartialExportFiles(registryFolder: archive.folder.appendingPathComponent("partial").path)
        ) { account in try passwords.read(account) }
        model = ExportScheduleModel(
            scheduler: scheduler, folder: exports, passwords: passwords.store, time: .utc,
            clock: { Date(timeIntervalSince1970: 946_728_000) })
    }

    private static func weeklyEncrypted() -> ExportScheduleModel.Form {
        var form = ExportScheduleModel.Form()
        form.isOn = true
        form.cadence = .daily
        form.hour = 3
        form.format = .jsonl
        form.encrypted = true
        return form
    }

    @Test func anEncryptedScheduleNeedsTheSamePasswordTwiceAndSavesNothingOtherwise() throws {
        var saved = 0
        model.onSaved = { saved += 1 }
        model.save(Self.weeklyEncrypted())
        #expect(model.errorMessage == "an encrypted export needs a password; it is kept in this iPhone's Keychain")
        model.save(Self.weeklyEncrypted(), password: "Test Password", confirmation: "Test Pasword")
        #expect(model.errorMessage == "the two passwords differ")
        #expect(try scheduler.schedule() == nil)
        #expect(passwords[ExportScheduleModel.passwordAccount] == nil)
        #expect(saved == 0)
    }

    @Test func aSavedScheduleRunsAndItsExportOpensWithThePassword() throws {
        var saved = 0
        model.onSaved = { saved += 1 }
        model.save(Self.weeklyEncrypted(), password: "Test Password", confirmation: "Test Password")
        #expect(model.errorMessage == nil)
        #expect(saved == 1)
        #expect(model.summary == "Next export 2000-01-02 03:00 UTC")
        let schedule = try #require(try scheduler.schedule())
        #expect(schedule.encrypted && schedule.passwordFile == ExportScheduleModel.passwordAccount)
        #expect(schedule.folder == exports.path && schedule.cadence == .daily && schedule.hour == 3)
        #expect(passwords[ExportScheduleModel.passwordAccount] == Array("Test Password".utf8))

        // A week later the scheduler finds a slot owed and writes an encrypted export.
        let outcome = try scheduler.runDue()
        #expect(outcome.succeeded)
        let written = try FileManager.default.contentsOfDirectory(atPath: exports.path).filter {
            $0.hasSuffix(".jsonl") || $0.hasSuffix(".enc")
        }
        #expect(written.count == 1, "\(outcome)")
        let bytes = try Data(contentsOf: exports.appendingPathComponent(written[0]))
        #expect(bytes.prefix(8) == Data("HPEXPENC".utf8))

        // Opened again, the form shows what was saved; the password is kept, not asked again.
        let reopened = ExportScheduleModel(
            scheduler: scheduler, folder: exports, passwords: passwords.store, time: .utc,
            clock: { Date(timeIntervalSince1970: 946_728_000) })
        reopened.refresh()
        #expect(reopened.form == Self.weeklyEncrypted())
        var later = Self.weeklyEncrypted()
        later.hour = 4
        reopened.save(later)
        #expect(reopened.errorMessage == nil)
        #expect(try scheduler.schedule()?.hour == 4)
    }

    /// A schedule saved with the whole path of the app's container before an update moved it
    /// is kept, relative to the container of the day, with its progress; new schedules are
    /// saved relative from the start.
    @Test func aFolderStoredWholeIsKeptRelativeToTheContainer() throws {
        let container = archive.folder
        var form = Self.weeklyEncrypted()
        form.encrypted = false
        let before = ExportScheduleModel(
            scheduler: scheduler,
            folder: URL(fileURLWithPath: "/var/mobile/Containers/Data/Application/OLD-TEST")
                .appendingPathComponent("Exports"), passwords: passwords.store, time: .utc,
            clock: { Date(timeIntervalSince1970: 946_728_000) })
        before.save(form)
        #expect(try scheduler.schedule()?.folder == "/var/mobile/Containers/Data/Application/OLD-TEST/Exports")
        _ = try scheduler.runDue()
        let progress = try scheduler.state()

        let after = ExportScheduleModel(
            scheduler: scheduler, folder: exports, container: container, passwords: passwords.store, time: .utc,
            clock: { Date(timeIntervalSince1970: 946_728_000) })
        after.refresh()
        #expect(after.errorMessage == nil)
        #expect(try scheduler.schedule()?.folder == "Exports")
        #expect(try scheduler.state() == progress)
        after.save(form)
        #expect(try scheduler.schedule()?.folder == "Exports")
        let trail = try archive.open().fetchAuditEntries().map(\.message)
        #expect(trail.contains("export schedule's folder kept relative to the app"))
    }

    @Test func turningItOffForgetsTheScheduleAndThePassword() throws {
        model.save(Self.weeklyEncrypted(), password: "Test Password", confirmation: "Test Password")
        var off = Self.weeklyEncrypted()
        off.isOn = false
        model.save(off)
        #expect(model.errorMessage == nil)
        #expect(model.summary == "Off")
        #expect(try scheduler.schedule() == nil)
        #expect(passwords[ExportScheduleModel.passwordAccount] == nil)
        let trail = try archive.open().fetchAuditEntries().map(\.message)
        #expect(trail.contains("export schedule turned off"))
    }
}

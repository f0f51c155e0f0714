import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// The scheduled export as the phone's Settings sets it up: how often, at what time, in which
/// format, encrypted or not. The password of an encrypted schedule goes to a password store (the
/// Keychain on iPhone) under ``passwordAccount``, never into the archive; the scheduler reads it
/// back from there when the export runs in the background.
@MainActor @Observable
public final class ExportScheduleModel {
    /// What the form shows.
    public struct Form: Sendable, Equatable {
        public var isOn = false
        public var cadence: ExportSchedule.Cadence = .weekly
        public var hour = 3
        public var minute = 0
        public var format: ExportFormat = .jsonl
        public var encrypted = false
        public var sinceLastOnly = false

        public init() {}
    }

    /// Where passwords are kept, as the app provides it (the Keychain on iPhone).
    public struct PasswordStore: Sendable {
        public var save: @Sendable (_ password: [UInt8], _ account: String) throws -> Void
        public var delete: @Sendable (_ account: String) throws -> Void

        public init(
            save: @escaping @Sendable ([UInt8], String) throws -> Void,
            delete: @escaping @Sendable (String) throws -> Void
        ) {
            self.save = save
            self.delete = delete
        }
    }

    /// The account the scheduled export's password is kept under (the schedule's `passwordFile`).
    public static let passwordAccount = "scheduled-export"

    public private(set) var form = Form()
    /// "Next export 2000-01-08 03:00 UTC", "Off".
    public private(set) var summary = "Off"
    public private(set) var errorMessage: String?
    /// Called once a schedule is saved or turned off: the app asks iOS for the next run.
    public var onSaved: (@MainActor () -> Void)?

    private let scheduler: ExportScheduler
    private let folder: URL
    /// The app's container, which the folder is stored relative to (iOS moves it on updates).
    private let container: URL?
    private let passwords: PasswordStore
    private let clock: @Sendable () -> Date
    private let time: ReadableTime

    public init(
        scheduler: ExportScheduler, folder: URL, container: URL? = nil, passwords: PasswordStore,
        time: ReadableTime = ReadableTime(), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.scheduler = scheduler
        self.folder = folder
        self.container = container
        self.passwords = passwords
        self.time = time
        self.clock = clock
    }

    /// The folder as the schedule stores it: relative to the container when inside it.
    private var storedFolder: String {
        guard let container, folder.path.hasPrefix(container.path + "/") else { return folder.path }
        return String(folder.path.dropFirst(container.path.count + 1))
    }

    public func refresh() {
        errorMessage = failureMessage {
            // A schedule saved with the whole path of an earlier container (before an update
            // moved it) is kept, relative to this one.
            if let stored = try scheduler.schedule()?.folder, stored.hasPrefix("/"), stored != folder.path,
                storedFolder != folder.path, stored.hasSuffix("/" + storedFolder)
            {
                try scheduler.keepFolder(storedFolder)
            }
            let schedule = try scheduler.schedule()
            form = schedule.map(Self.form) ?? Form()
            summary = try describe(schedule)
        }
    }

    /// Saves `form` as the schedule; an encrypted one needs `password` (typed twice, the same) the
    /// first time and whenever it is given again. Nothing is saved when anything is wrong.
    public func save(_ form: Form, password: String? = nil, confirmation: String? = nil) {
        errorMessage = failureMessage {
            guard form.isOn else { return try turnOff() }
            guard (0..<24).contains(form.hour), (0..<60).contains(form.minute) else {
                throw SettingsError(message: "choose a time of day")
            }
            let newPassword = password.flatMap { $0.isEmpty ? nil : $0 }
            if form.encrypted {
                if let newPassword, newPassword != confirmation {
                    throw SettingsError(message: "the two passwords differ")
                }
                let kept = try scheduler.schedule()?.encrypted == true
                if newPassword == nil && !kept {
                    throw SettingsError(
                        message: "an encrypted export needs a password; it is kept in this iPhone's Keychain")
                }
            }
            if form.encrypted, let newPassword {
                try passwords.save(Array(newPassword.utf8), Self.passwordAccount)
            }
            let schedule = ExportSchedule(
                cadence: form.cadence, hour: form.hour, minute: form.minute, timeZone: TimeZone.current.identifier,
                format: form.format, folder: storedFolder, encrypted: form.encrypted,
                passwordFile: form.encrypted ? Self.passwordAccount : nil,
                range: form.sinceLastOnly ? .sinceLast : .all, createdAt: clock())
            try scheduler.setSchedule(schedule)
            if !form.encrypted { try passwords.delete(Self.passwordAccount) }
            self.form = form
            summary = try describe(schedule)
        }
        if errorMessage == nil { onSaved?() }
    }

    private func turnOff() throws {
        try scheduler.setSchedule(nil)
        try passwords.delete(Self.passwordAccount)
        form = Form()
        summary = "Off"
    }

    private func describe(_ schedule: ExportSchedule?) throws -> String {
        guard let schedule else { return "Off" }
        var text = "Next export \(time.minute(schedule.nextSlot(after: clock())))"
        if let last = try scheduler.state().lastCompletedSlot {
            text += "; last \(time.minute(Date(timeIntervalSince1970: last)))"
        }
        return text
    }

    private static func form(_ schedule: ExportSchedule) -> Form {
        var form = Form()
        form.isOn = true
        form.cadence = schedule.cadence
        form.hour = schedule.hour
        form.minute = schedule.minute
        form.format = schedule.format
        form.encrypted = schedule.encrypted
        form.sinceLastOnly = schedule.range == .sinceLast
        return form
    }
}

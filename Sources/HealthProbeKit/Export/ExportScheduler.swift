import Foundation
import HealthProbeArchive

/// What a schedule has done: the slot last completed and the capture that export reflected;
/// since then, how many tries of the owed slot failed (or were cut short) and when the last was.
public struct ExportScheduleState: Sendable, Codable, Equatable {
    public var lastCompletedSlot: Double?
    public var lastExportedCapture: Int64?
    public var failedTries: Int?
    public var lastTry: Double?

    public init(
        lastCompletedSlot: Double? = nil, lastExportedCapture: Int64? = nil, failedTries: Int? = nil,
        lastTry: Double? = nil
    ) {
        self.lastCompletedSlot = lastCompletedSlot
        self.lastExportedCapture = lastExportedCapture
        self.failedTries = failedTries
        self.lastTry = lastTry
    }
}

/// Stores the schedule in the archive and runs what is overdue. The command line's `export due`,
/// the iOS app's background task and its foreground fallback all call ``runDue()``.
public struct ExportScheduler: Sendable {
    /// The schedule is a setting (kept when audit data is deleted); its progress is not.
    static let scheduleKey = MonitoringSettings.keyPrefix + "exportSchedule"
    static let stateKey = "export.scheduleState"

    public enum Outcome: Sendable, Equatable {
        case noSchedule
        /// Nothing overdue; the next slot.
        case notDue(next: Date)
        case exported(ExportResult, slot: Date)
        /// The run failed; the slot stays owed and the next `due` tries again.
        case failed(ExportFailure, slot: Date)

        /// What a background task reports to the system: false only when an export was owed
        /// and did not complete.
        public var succeeded: Bool {
            if case .failed = self { return false }
            return true
        }
    }

    let archive: ArchiveStore
    let clock: @Sendable () -> Date
    let files: PartialExportFiles
    /// What a schedule's relative folder is relative to: the app's container, which iOS moves
    /// on an update or a restore (TN2406), so the phone stores its folder without it.
    let container: URL?
    /// Reads the password of an encrypted schedule from its file.
    let password: @Sendable (String) throws -> [UInt8]

    public init(
        archive: ArchiveStore, clock: @escaping @Sendable () -> Date = { Date() },
        files: PartialExportFiles = .standard, container: URL? = nil,
        password: @escaping @Sendable (String) throws -> [UInt8]
    ) {
        self.archive = archive
        self.clock = clock
        self.files = files
        self.container = container
        self.password = password
    }

    /// The first retry of an owed slot comes this long after a failed try, each next one twice
    /// as long after, never more than ``longestRetryWait``: a failed or expired weekly export
    /// does not wait a week.
    static let firstRetryWait: Double = 15 * 60
    static let longestRetryWait: Double = 6 * 3_600

    /// When the next try should run: now when a slot is owed and no try failed, after a
    /// lengthening wait when tries failed (never later than the next slot), else the next slot.
    /// Nil without a schedule.
    public func nextTry() throws -> Date? {
        guard let schedule = try schedule() else { return nil }
        let now = clock()
        let state = try state()
        let owedAfter = max(state.lastCompletedSlot ?? schedule.createdAt, schedule.createdAt)
        let nextSlot = schedule.nextSlot(after: max(now, Date(timeIntervalSince1970: owedAfter)))
        guard let owed = schedule.latestSlot(atOrBefore: now), owed.timeIntervalSince1970 > owedAfter else {
            return nextSlot
        }
        guard let tries = state.failedTries, tries > 0, let last = state.lastTry else { return now }
        let wait = min(Self.longestRetryWait, Self.firstRetryWait * pow(2, Double(min(tries, 16) - 1)))
        return min(max(now, Date(timeIntervalSince1970: last + wait)), nextSlot)
    }

    /// Notes a failed try of the owed slot, keeping what was completed.
    private func noteFailedTry(_ state: ExportScheduleState, at now: Date) {
        var failed = state
        failed.failedTries = (state.failedTries ?? 0) + 1
        failed.lastTry = now.timeIntervalSince1970
        try? archive.storeSettings([Self.stateKey: try Self.encode(failed)])
    }

    public func schedule() throws -> ExportSchedule? {
        try Self.decode(ExportSchedule.self, try archive.storedSetting(Self.scheduleKey))
    }

    public func state() throws -> ExportScheduleState {
        try Self.decode(ExportScheduleState.self, try archive.storedSetting(Self.stateKey)) ?? ExportScheduleState()
    }

    /// Stores a schedule in place of any other; its progress starts afresh.
    public func setSchedule(_ schedule: ExportSchedule?) throws {
        try archive.storeSettings(
            [Self.scheduleKey: try schedule.map(Self.encode), Self.stateKey: nil],
            auditMessage: schedule.map { "export schedule set: \($0.cadence.rawValue), \($0.format.rawValue)" }
                ?? "export schedule turned off")
    }

    /// Keeps the schedule, and its progress, with another folder: the phone's migration of a
    /// folder stored whole (its container's path changes on an update) to one relative to the
    /// container.
    public func keepFolder(_ folder: String) throws {
        guard var schedule = try schedule(), schedule.folder != folder else { return }
        schedule.folder = folder
        try archive.storeSettings(
            [Self.scheduleKey: try Self.encode(schedule)],
            auditMessage: "export schedule's folder kept relative to the app")
    }

    /// Runs one export when the latest slot is later than the last completed one: one catch-up
    /// for any number of missed slots. A clock set back finds nothing owed until it passes the
    /// last completed slot again.
    public func runDue(cancellation: CancellationFlag? = nil) throws -> Outcome {
        guard let schedule = try schedule() else { return .noSchedule }
        let now = clock()
        let state = try state()
        let owedAfter = max(state.lastCompletedSlot ?? schedule.createdAt, schedule.createdAt)
        guard let slot = schedule.latestSlot(atOrBefore: now), slot.timeIntervalSince1970 > owedAfter else {
            return .notDue(next: schedule.nextSlot(after: max(now, Date(timeIntervalSince1970: owedAfter))))
        }
        var request = request(for: schedule, slot: slot, state: state)
        if schedule.encrypted {
            do {
                guard let file = schedule.passwordFile else { throw PasswordMissing() }
                request.password = try password(file)
            } catch {
                let failure = ExportFailure.failed(problem: "the schedule's password could not be read")
                try? archive.recordExportRun(request, startedAt: now, outcome: .failed(failure), encrypted: true)
                noteFailedTry(state, at: now)
                return .failed(failure, slot: slot)
            }
        }
        do {
            let result = try archive.export(request, files: files, cancellation: cancellation)
            let done = ExportScheduleState(
                lastCompletedSlot: slot.timeIntervalSince1970, lastExportedCapture: result.captureId)
            try archive.storeSettings([Self.stateKey: try Self.encode(done)])
            return .exported(result, slot: slot)
        } catch let failure as ExportFailure {
            noteFailedTry(state, at: now)
            return .failed(failure, slot: slot)
        }
    }

    /// The export a slot runs: named after the slot in the schedule's zone, so runs never
    /// collide and sort by time.
    /// The password is read by the caller.
    func request(for schedule: ExportSchedule, slot: Date, state: ExportScheduleState) -> ExportRequest {
        var selection = ExportSelection()
        switch schedule.range {
        case .all: break
        case .sinceLast: selection.receivedAfterCapture = state.lastExportedCapture
        case .lastDays(let days): selection.startFrom = slot.timeIntervalSince1970 - Double(days) * 86_400
        }
        let zone = TimeZone(identifier: schedule.timeZone) ?? .gmt
        var timestamps = ZonedTimestamps(zone: zone)
        let stamp = String(timestamps.text(slot.timeIntervalSince1970).prefix(16))
            .replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "T", with: "-")
        let name = "healthprobe-\(stamp).\(schedule.format.fileExtension)\(schedule.encrypted ? ".enc" : "")"
        return ExportRequest(
            format: schedule.format,
            outputPath: folder(of: schedule).appendingPathComponent(name).path,
            selection: selection, timeZone: zone, replacesExisting: true,
            trigger: .scheduled, rangeDescription: schedule.range.description)
    }

    /// The schedule's folder: an absolute path as it is, a relative one in ``container``.
    func folder(of schedule: ExportSchedule) -> URL {
        guard !schedule.folder.hasPrefix("/"), let container else { return URL(fileURLWithPath: schedule.folder) }
        return container.appendingPathComponent(schedule.folder)
    }

    private struct PasswordMissing: Error {}

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T? {
        try text.map { try JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }

    private static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

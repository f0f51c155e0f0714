import Foundation
import HealthProbeArchive

/// What a schedule has done: the slot last completed and the capture that export reflected.
public struct ExportScheduleState: Sendable, Codable, Equatable {
    public var lastCompletedSlot: Double?
    public var lastExportedCapture: Int64?

    public init(lastCompletedSlot: Double? = nil, lastExportedCapture: Int64? = nil) {
        self.lastCompletedSlot = lastCompletedSlot
        self.lastExportedCapture = lastExportedCapture
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
    /// Reads the password of an encrypted schedule from its file.
    let password: @Sendable (String) throws -> [UInt8]

    public init(
        archive: ArchiveStore, clock: @escaping @Sendable () -> Date = { Date() },
        files: PartialExportFiles = .standard,
        password: @escaping @Sendable (String) throws -> [UInt8]
    ) {
        self.archive = archive
        self.clock = clock
        self.files = files
        self.password = password
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
            outputPath: URL(fileURLWithPath: schedule.folder).appendingPathComponent(name).path,
            selection: selection, timeZone: zone, replacesExisting: true,
            trigger: .scheduled, rangeDescription: schedule.range.description)
    }

    private struct PasswordMissing: Error {}

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T? {
        try text.map { try JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }

    private static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

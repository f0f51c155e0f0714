import Foundation
import HealthProbeArchive

/// The live path's check (docs/DESIGN.md §3, docs/HEALTHKIT.md): for each monitored type, the changes since
/// the saved anchor go into a delta capture — explicit deletions marked gone with reason
/// `deleted` and an audit entry — and every few checks, after a context change, or when a check
/// reads nothing at all, a verification scan re-reads every type into a full capture, finding
/// what vanished without a tombstone. Then the detectors run. A locked device defers the check;
/// access that seems off makes the status unknown, never "healthy"; nothing read while access
/// is off is taken for a loss.
public actor HealthMonitor {
    public struct Configuration: Sendable {
        /// A verification scan at least every this many checks.
        public var verificationEvery = 7
        /// A check that reads nothing verifies, at most this often (seconds).
        public var quietVerificationInterval = 86_400.0
        /// Samples per anchored-query page.
        public var pageLimit = 1_000
        public var thresholds = Thresholds()

        public init() {}
    }

    public let source: any HealthDataSource
    public let store: ArchiveStore
    /// The types this monitor can read; each check reads those of them the settings monitor.
    public let types: [HealthKitCatalog.MonitoredType]
    public let configuration: Configuration
    private let clock: @Sendable () -> Date
    public private(set) var currentStatus: MonitorStatus
    public private(set) var lastChecked: Date?
    /// The check running now, and the one asked for while it runs (one, whoever asked):
    /// see ``runCheck()``.
    private var running: Task<CheckOutcome, Never>?
    private var queued: Task<CheckOutcome, Never>?

    public init(
        source: any HealthDataSource, store: ArchiveStore,
        types: [HealthKitCatalog.MonitoredType] = HealthKitCatalog.types,
        configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.source = source
        self.store = store
        self.types = types
        self.configuration = configuration
        self.clock = clock
        let state = try MonitorState.load(store)
        try store.recordInAuditTrail(.archiveOpened, message: "archive opened by the Health monitor")
        currentStatus = state.status ?? .unknown(reason: "HealthProbe has not checked yet")
        lastChecked = state.lastCheckedAt.map { Date(timeIntervalSince1970: $0) }
    }

    /// One check at a time. Observers of several types, the background refresh and Check Now may
    /// all ask at once: a request while a check runs is merged with every other such request
    /// into one more check, which starts when the running one ends (it may have read its anchors
    /// before what woke the request was written), and each caller gets the outcome of the check
    /// that covers its request. Cancelling a caller cancels the check it waits on (the background
    /// time is up): that check is cut off, and the next resumes it.
    public func runCheck() async -> CheckOutcome {
        if let queued { return await Self.value(of: queued) }
        if let running {
            let next = Task {
                _ = await running.value
                return await self.startCheck()
            }
            queued = next
            return await Self.value(of: next)
        }
        return await startCheck()
    }

    private func startCheck() async -> CheckOutcome {
        queued = nil
        let check = Task { await self.performCheck() }
        running = check
        let outcome = await Self.value(of: check)
        if running == check { running = nil }
        return outcome
    }

    private static func value(of check: Task<CheckOutcome, Never>) async -> CheckOutcome {
        await withTaskCancellationHandler {
            await check.value
        } onCancel: {
            check.cancel()
        }
    }

    /// The day figures of the last days against Health's own statistics, when the source gives
    /// them; a difference is noted in the trail, once while it stays the same. Never fails a check.
    private func compareFigures(_ types: [String], now: Date) async -> [FigureDisagreement] {
        guard let statistics = source as? any HealthStatisticsSource,
            let found = try? await HealthStatisticsComparison.compare(store, with: statistics, types: types, now: now),
            !found.isEmpty
        else { return [] }
        let message = HealthStatisticsComparison.auditMessage(found)
        let last = try? store.fetchAuditEntries(AuditLog.Filter(event: AuditLog.Event.figuresDiffer.rawValue, limit: 1))
        if last?.entries.first?.message != message { try? store.recordInAuditTrail(.figuresDiffer, message: message) }
        return found
    }

    private func performCheck() async -> CheckOutcome {
        let now = clock()
        switch await source.authorization() {
        case .unavailable:
            return finish(.failed, status: .unknown(reason: "Health data is not available on this device"))
        case .notDetermined:
            return finish(.failed, status: .unknown(reason: "HealthProbe has not been given Health access yet"))
        case .requested:
            break
        }
        var capture: LiveCapture?
        do {
            return try await check(at: now, capture: &capture)
        } catch {
            return stopped(by: error, capture: capture)
        }
    }

    /// Reads what changed into a live capture (every type, when a verification is due), completes
    /// and audits it, and says what it found. `capture` is the capture begun, for ``stopped(by:capture:)``.
    private func check(at now: Date, capture: inout LiveCapture?) async throws -> CheckOutcome {
        var state = try MonitorState.load(store)
        let settings = try store.fetchSettings()
        let chosen = Set(settings.monitoredTypes)
        let types = self.types.filter { chosen.contains($0.identifier) }.map(\.identifier)
        let contextChanged = try !ContextMonitor(store: store).changes(after: lastChecked).isEmpty
        let due = state.checksSinceVerification + 1 >= configuration.verificationEvery
        var current =
            try LiveCapture.resume(store, asOf: now.timeIntervalSince1970)
            ?? LiveCapture.begin(
                store, full: due || contextChanged || state.lastVerifiedAt == nil, asOf: now.timeIntervalSince1970)
        capture = current
        var progress = try current.progress(store)
        try await readChanges(of: types, into: current, anchors: state.anchors, progress: &progress)
        if try readNothing(current, progress, state: state, now: now) {
            current = try current.upgradedToFull(store)
            capture = current
        }
        var verification = Verification()
        if current.isFull {
            try await scan(types, current, progress: &progress)
            verification = Verification(types: types, progress: progress)
        }
        try Task.checkCancellation()
        var anchors = state.anchors
        for (type, reached) in progress { anchors[type] = reached.anchorToSave ?? anchors[type] }
        // Completing reads the totals of what changed (every record, for a first sync): a
        // cancellation stops it too, and the next window completes.
        let completing = current
        let (summary, audit) = try await interruptible { cancellation in
            try completing.complete(
                store, records: progress.stored, anchors: anchors, verifiedTypes: verification.marked,
                thresholds: configuration.thresholds, cancellation: cancellation)
        }
        let status = try status(of: audit, verification: verification, capture: summary.id)
        state.record(check: now.timeIntervalSince1970, verified: current.isFull, status: status)
        try state.save(store)
        var outcome = finish(.completed, status: status, at: now)
        outcome.capture = summary
        outcome.anomalies = audit.anomalies
        outcome.alerts = settings.alerting(audit.anomalies)
        outcome.verified = current.isFull
        (outcome.explicitDeletions, outcome.updates) = try store.goneCounts(summary.id)
        outcome.notes = audit.notes
        outcome.figureDisagreements = await compareFigures(types, now: now)
        return outcome
    }

    /// A check that read nothing, where the archive holds live records, verifies (at most so
    /// often): that is what read access switched off looks like. Counted only then.
    private func readNothing(
        _ capture: LiveCapture, _ progress: [String: LiveProgress], state: MonitorState, now: Date
    ) throws -> Bool {
        guard !capture.isFull, progress.added == 0, progress.deleted == 0,
            now.timeIntervalSince1970 - (state.lastVerifiedAt ?? 0) >= configuration.quietVerificationInterval
        else { return false }
        return try store.liveRecordCount() > 0
    }

    /// The status the audit gives, unless a verification found types returning nothing where
    /// the archive holds records: then access may be off, said in the trail, never a loss.
    private func status(of audit: CaptureAudit.Report, verification: Verification, capture: Int64) throws
        -> MonitorStatus
    {
        guard !verification.suspected.isEmpty else { return MonitorStatus.from(audit.anomalies) }
        let suspected = verification.suspected.count
        try store.recordInAuditTrail(
            .accessSuspected,
            message:
                "capture \(capture): \(suspected) types returned nothing where the archive holds records; not taken for a loss"
        )
        return suspected >= verification.typesWithRecords
            ? .accessOff
            : .unknown(reason: "Health access may be off for \(suspected) types: check Settings > Privacy > Health")
    }

    /// What a check stopped before it completed did and says: cut off (time ran out), deferred
    /// (the device locked), or failed.
    private func stopped(by error: any Error, capture: LiveCapture?) -> CheckOutcome {
        if error is CancellationError {
            try? capture?.recordCutOff(store, reason: "its time ran out")
            var outcome = CheckOutcome(kind: .cutOff, status: currentStatus)
            outcome.notes = ["the check was cut off: what it read is stored, and the next check resumes it"]
            return outcome
        }
        if case HealthDataSourceError.databaseInaccessible? = error as? HealthDataSourceError {
            var outcome = CheckOutcome(kind: .deferred, status: currentStatus)
            if let capture, (try? capture.progress(store).isEmpty) == false {
                try? capture.recordCutOff(store, reason: "the device locked")
                outcome.notes = [
                    "the device locked: what was read is stored, nothing was read as missing, and the check resumes when it is unlocked"
                ]
                return outcome
            }
            try? capture?.abandon(store, reason: "the device is locked")
            try? store.recordInAuditTrail(
                .checkDeferred, message: "check deferred: the device is locked; it runs again when unlocked")
            outcome.notes = ["the device was locked: the check was deferred, nothing was read as missing"]
            return outcome
        }
        try? capture?.abandon(store, reason: "the check failed")
        return finish(.failed, status: .unknown(reason: "the check could not run: \(error.localizedDescription)"))
    }

    /// When the next check is due by the chosen frequency: what the app asks a background
    /// refresh for (`BGAppRefreshTaskRequest.earliestBeginDate`).
    public func nextCheckDate() throws -> Date {
        try store.fetchSettings().nextCheck(after: lastChecked, now: clock())
    }

    private func finish(_ kind: CheckOutcome.Kind, status: MonitorStatus, at date: Date? = nil) -> CheckOutcome {
        currentStatus = status
        if let date { lastChecked = date }
        return CheckOutcome(kind: kind, status: status)
    }
}

import Foundation
import GRDB

/// The live path's check (DESIGN §3, HEALTHKIT.md): for each monitored type, the changes since
/// the saved anchor go into a delta capture — explicit deletions marked gone with reason
/// `deleted` and an audit entry — and every few checks, after a context change, or when a check
/// reads nothing at all, a verification scan re-reads every type into a full capture, finding
/// what vanished without a tombstone. Then the detectors run. A locked device defers the check;
/// access that seems off makes the status unknown, never "healthy"; nothing read while access
/// is off is taken for a loss.
public actor HealthMonitor: HealthMonitorProtocol {
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

    public func runCheck() async -> CheckOutcome {
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
            var state = try MonitorState.load(store)
            let settings = try store.fetchSettings()
            let chosen = Set(settings.monitoredTypes)
            let types = self.types.filter { chosen.contains($0.identifier) }.map(\.identifier)
            let contextChanged = try !ContextMonitor(store: store).changes(after: lastChecked).isEmpty
            let due = state.checksSinceVerification + 1 >= configuration.verificationEvery
            let started = try LiveCapture.begin(
                store, full: due || contextChanged || state.lastVerifiedAt == nil, asOf: now.timeIntervalSince1970)
            capture = started
            var pass = try await readChanges(of: types, into: started, anchors: state.anchors)
            var current = started
            // A check that read nothing, where the archive holds live records, verifies (at most
            // so often): that is what read access switched off looks like. Counted only then.
            if !current.isFull && pass.added == 0 && pass.deleted == 0
                && now.timeIntervalSince1970 - (state.lastVerifiedAt ?? 0) >= configuration.quietVerificationInterval,
                try liveRecordCount() > 0
            {
                current = try started.upgradedToFull(store)
                capture = current
            }
            if current.isFull { try await verify(types, current, into: &pass) }
            let (summary, audit) = try current.complete(
                store, records: pass.records, anchors: pass.anchors, thresholds: configuration.thresholds)
            var status = MonitorStatus.from(audit.anomalies)
            if !pass.suspectedTypes.isEmpty {
                status =
                    pass.suspectedTypes.count >= pass.typesWithRecords
                    ? .accessOff
                    : .unknown(
                        reason:
                            "Health access may be off for \(pass.suspectedTypes.count) types: check Settings > Privacy > Health"
                    )
                try store.recordInAuditTrail(
                    .accessSuspected,
                    message:
                        "capture \(summary.id): \(pass.suspectedTypes.count) types returned nothing where the archive holds records; not taken for a loss"
                )
            }
            state.record(check: now.timeIntervalSince1970, verified: current.isFull, status: status)
            try state.save(store)
            var outcome = finish(.completed, status: status, at: now)
            outcome.capture = summary
            outcome.anomalies = audit.anomalies
            outcome.alerts = settings.alerting(audit.anomalies)
            outcome.verified = current.isFull
            (outcome.explicitDeletions, outcome.updates) = try goneCounts(summary.id)
            outcome.notes = audit.notes
            return outcome
        } catch HealthDataSourceError.databaseInaccessible {
            try? capture?.abandon(store, reason: "the device is locked")
            try? store.recordInAuditTrail(
                .checkDeferred, message: "check deferred: the device is locked; it runs again when unlocked")
            var outcome = CheckOutcome(kind: .deferred, status: currentStatus)
            outcome.notes = ["the device was locked: the check was deferred, nothing was read as missing"]
            return outcome
        } catch {
            try? capture?.abandon(store, reason: "the check failed")
            return finish(.failed, status: .unknown(reason: "the check could not run: \(error.localizedDescription)"))
        }
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

    /// What one check read.
    struct Pass {
        var anchors: [String: HealthAnchor] = [:]
        var added = 0
        var deleted = 0
        var records = 0
        var suspectedTypes: [String] = []
        var typesWithRecords = 0
    }

    /// Changes since each type's anchor, page by page. A verification stores only the deletions
    /// here: its scan stores every sample once.
    private func readChanges(
        of types: [String], into capture: LiveCapture, anchors saved: [String: HealthAnchor]
    ) async throws -> Pass {
        var pass = Pass()
        for type in types {
            var anchor = saved[type]
            while true {
                let page = try await source.changes(of: type, since: anchor, limit: configuration.pageLimit)
                if !capture.isFull {
                    try capture.add(page.added, store)
                    pass.records += page.added.count
                }
                pass.added += page.added.count
                pass.deleted += try capture.markDeleted(page.deleted, type: type, store)
                anchor = page.anchor ?? anchor
                if !page.mayHaveMore { break }
            }
            if let anchor { pass.anchors[type] = anchor }
        }
        return pass
    }

    /// Re-reads every type from the beginning, a page at a time (memory bounded by the page, not
    /// by the type); what the archive holds and the scan did not meet is gone without a trace —
    /// marked only once the type's scan has finished, so a scan cut short marks nothing. A scan
    /// that returns nothing where the archive holds records is what denied read access looks
    /// like: the type is suspected, not emptied. Deletions the scan meets were already read
    /// through the saved anchors.
    private func verify(_ types: [String], _ capture: LiveCapture, into pass: inout Pass) async throws {
        for type in types {
            let present = try capture.presentCount(of: type, store)
            if present > 0 { pass.typesWithRecords += 1 }
            var anchor: HealthAnchor?
            var seen = 0
            while true {
                let page = try await source.changes(of: type, since: anchor, limit: configuration.pageLimit)
                try capture.add(page.added, store)
                seen += page.added.count
                anchor = page.anchor ?? anchor
                if !page.mayHaveMore { break }
            }
            pass.records += seen
            if seen == 0 && present > 0 {
                pass.suspectedTypes.append(type)
                continue
            }
            _ = try capture.markAbsent(type: type, store)
        }
    }

    /// Records this capture marked deleted, and those it found replaced or written again.
    private func goneCounts(_ capture: Int64) throws -> (deleted: Int, updated: Int) {
        try store.writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT goneReason, COUNT(*) AS n FROM record WHERE goneCapture = ? GROUP BY goneReason",
                arguments: [capture])
            let counts = Dictionary(
                uniqueKeysWithValues: rows.map { ($0["goneReason"] as String? ?? "", $0["n"] as Int) })
            return (counts["deleted"] ?? 0, (counts["replaced"] ?? 0) + (counts["reissued"] ?? 0))
        }
    }

    private func liveRecordCount() throws -> Int {
        try store.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE healthKitUUID IS NOT NULL AND goneCapture IS NULL") ?? 0
        }
    }
}

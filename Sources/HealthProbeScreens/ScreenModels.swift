import Foundation
import HealthProbeKit
import Observation

/// The Dashboard's model: the SwiftUI view observes it; tests drive it. Loading reads the
/// archive; Check Now runs the monitor and reloads.
@MainActor @Observable
public final class DashboardModel {
    public private(set) var state: DashboardState?
    public private(set) var errorMessage: String?
    public private(set) var isChecking = false
    /// What the last Check Now did, in words.
    public private(set) var lastOutcome: String?

    private let archive: any HealthArchiveStore
    private let monitor: (any HealthMonitorProtocol)?
    private let format: ScreenFormat

    public init(archive: any HealthArchiveStore, monitor: (any HealthMonitorProtocol)?, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.monitor = monitor
        self.format = format
    }

    public func refresh() {
        capture { state = try DashboardState.load(from: archive, format: format) }
    }

    /// Runs a check now, then reloads; does nothing while one is running.
    public func checkNow() async {
        guard let monitor, !isChecking else { return }
        isChecking = true
        defer { isChecking = false }
        let outcome = await monitor.runCheck()
        lastOutcome = CheckOutcomeText.describe(outcome)
        refresh()
    }

    private func capture(_ body: () throws -> Void) {
        do {
            try body()
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

/// The Anomalies tab's model: the filtered list, resolving, and one anomaly's detail.
@MainActor @Observable
public final class AnomaliesModel {
    public var filter = AnomalyListState.Filter() {
        didSet { refresh() }
    }
    public private(set) var list: AnomalyListState?
    public private(set) var detail: AnomalyDetailState?
    public private(set) var errorMessage: String?

    private let archive: any HealthArchiveStore
    private let format: ScreenFormat

    public init(archive: any HealthArchiveStore, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.format = format
    }

    public func refresh() {
        run { list = try AnomalyListState.load(from: archive, filter: filter, format: format) }
    }

    /// Opens an anomaly's detail, values withheld.
    public func open(_ id: Int64) {
        run { detail = try AnomalyDetailState.load(from: archive, id: id, format: format) }
    }

    /// Shows the open anomaly's health values: only after the user asked (a tap).
    public func revealValues() {
        guard let id = detail?.row.id else { return }
        run { detail = try AnomalyDetailState.load(from: archive, id: id, revealValues: true, format: format) }
    }

    /// Marks anomalies resolved (from the list's swipe or the detail's button), then reloads.
    public func resolve(_ ids: [Int64]) {
        run {
            _ = try archive.resolveAnomalies(ids: ids)
            list = try AnomalyListState.load(from: archive, filter: filter, format: format)
            if let open = detail?.row.id {
                detail = try AnomalyDetailState.load(
                    from: archive, id: open, revealValues: detail?.valuesRevealed ?? false, format: format)
            }
        }
    }

    private func run(_ body: () throws -> Void) {
        do {
            try body()
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

/// The Audit Trail's model.
@MainActor @Observable
public final class AuditTrailModel {
    public var event: String? {
        didSet { refresh() }
    }
    public private(set) var state: AuditTrailState?
    public private(set) var errorMessage: String?

    private let archive: any HealthArchiveStore
    private let format: ScreenFormat

    public init(archive: any HealthArchiveStore, format: ScreenFormat = ScreenFormat()) {
        self.archive = archive
        self.format = format
    }

    public func refresh() {
        do {
            state = try AuditTrailState.load(from: archive, event: event, format: format)
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    /// The trail as JSON, for the Export action.
    public func exportJSON() throws -> Data {
        try AuditTrailState.exportJSON(from: archive)
    }
}

/// Archive Status's model.
@MainActor @Observable
public final class ArchiveStatusModel {
    public private(set) var state: ArchiveStatusState?
    public private(set) var errorMessage: String?
    public private(set) var isCheckingIntegrity = false

    private let archive: any HealthArchiveStore
    private let sync: (any SyncMonitorProtocol)?
    private let path: String?
    private let format: ScreenFormat

    public init(
        archive: any HealthArchiveStore, sync: (any SyncMonitorProtocol)?, path: String?,
        format: ScreenFormat = ScreenFormat()
    ) {
        self.archive = archive
        self.sync = sync
        self.path = path
        self.format = format
    }

    public func refresh() {
        do {
            state = try ArchiveStatusState.load(from: archive, sync: sync, path: path, format: format)
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    /// Runs the integrity check (it reads the whole archive) and reloads.
    public func checkIntegrity() {
        isCheckingIntegrity = true
        defer { isCheckingIntegrity = false }
        do {
            try archive.checkIntegrity(now: Date())
            refresh()
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

/// The Settings model: edits are saved at once; a deletion needs a confirmation first.
@MainActor @Observable
public final class SettingsModel {
    public private(set) var state: SettingsState?
    public private(set) var errorMessage: String?
    /// True between asking to delete all audit data and confirming or cancelling.
    public private(set) var isConfirmingDeletion = false

    private let archive: any HealthArchiveStore

    public init(archive: any HealthArchiveStore) {
        self.archive = archive
    }

    public func refresh() {
        update { state = try SettingsState.load(from: archive) }
    }

    public func save(_ settings: MonitoringSettings) {
        update { state = SettingsState.make(try archive.saveSettings(settings)) }
    }

    public func askToDeleteAllAuditData() { isConfirmingDeletion = true }

    public func cancelDeletion() { isConfirmingDeletion = false }

    /// Deletes all audit data — only after `askToDeleteAllAuditData`.
    public func confirmDeletion() {
        guard isConfirmingDeletion else { return }
        isConfirmingDeletion = false
        update {
            try archive.deleteAllAuditData()
            state = try SettingsState.load(from: archive)
        }
    }

    private func update(_ body: () throws -> Void) {
        do {
            try body()
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit
import Observation

/// The Settings model: edits are saved at once; a deletion needs a confirmation first.
@MainActor @Observable
public final class SettingsModel {
    public private(set) var state: SettingsState?
    public private(set) var errorMessage: String?
    /// True between asking to delete all audit data and confirming or cancelling.
    public private(set) var isConfirmingDeletion = false

    /// Called with the settings once they are saved: the app re-registers its HealthKit
    /// observers for the types now monitored.
    public var onSaved: (@MainActor (MonitoringSettings) -> Void)?

    private let archive: ArchiveStore

    public init(archive: ArchiveStore) {
        self.archive = archive
    }

    public func refresh() {
        errorMessage = failureMessage { state = try SettingsState.load(from: archive) }
    }

    public func save(_ settings: MonitoringSettings) {
        var saved: MonitoringSettings?
        errorMessage = failureMessage {
            saved = try archive.saveSettings(settings)
            state = saved.map(SettingsState.make)
        }
        if let saved { onSaved?(saved) }
    }

    public func askToDeleteAllAuditData() { isConfirmingDeletion = true }

    public func cancelDeletion() { isConfirmingDeletion = false }

    /// Deletes all audit data — only after `askToDeleteAllAuditData`.
    public func confirmDeletion() {
        guard isConfirmingDeletion else { return }
        isConfirmingDeletion = false
        errorMessage = failureMessage {
            try archive.deleteAllAuditData()
            state = try SettingsState.load(from: archive)
        }
    }
}

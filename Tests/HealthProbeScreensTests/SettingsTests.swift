import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import TestSupport
import Testing

@Suite("Settings")
struct SettingsTests {
    @Test func settingsAreStoredInTheArchiveAndAudited() throws {
        let archive = try AuditedArchive(records: 300)
        let store = try archive.open()
        #expect(try store.fetchSettings() == .defaults)
        var chosen = MonitoringSettings.defaults
        chosen.checkFrequency = .every12Hours
        chosen.alertThreshold = .critical
        chosen.alertThresholdChosen = true
        chosen.monitoredTypes = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"]
        try store.saveSettings(chosen)
        let reopened = try archive.open().fetchSettings()
        #expect(reopened.checkFrequency == .every12Hours)
        #expect(reopened.alertThreshold == .critical)
        // Kept in the catalog's order.
        #expect(reopened.monitoredTypes == ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"])
        let entry = try #require(try store.fetchAuditEntries().last)
        #expect(entry.event == "settingsChanged")
        #expect(entry.message.contains("check frequency every 12 hours"))
    }

    @Test func aFormValueOutOfRangeIsRefusedWithAMessage() throws {
        let current = MonitoringSettings.defaults
        #expect(throws: SettingsError(message: "Check frequency must be every 2, 6, 12 or 24 hours.")) {
            try SettingsState.settings(fromHours: "5", types: current.monitoredTypes, threshold: nil, current: current)
        }
        #expect(throws: SettingsError(message: "choose at least one sample type to monitor")) {
            try SettingsState.settings(fromHours: "6", types: [], threshold: "info", current: current)
        }
        #expect(throws: SettingsError(message: "Alert threshold must be info, warning or critical.")) {
            try SettingsState.settings(
                fromHours: "6", types: current.monitoredTypes, threshold: "loud", current: current)
        }
        #expect(throws: SettingsError.self) {
            try SettingsState.settings(
                fromHours: "6", types: ["HKQuantityTypeIdentifierMadeUp"], threshold: nil, current: current)
        }
    }

    @Test func theScheduleFollowsTheFrequency() {
        var settings = MonitoringSettings.defaults
        settings.checkFrequency = .every2Hours
        let last = Date(timeIntervalSince1970: 946_684_800)
        #expect(settings.nextCheck(after: last, now: last) == last.addingTimeInterval(7_200))
        #expect(settings.nextCheck(after: nil, now: last) == last)
        // Overdue: now, not in the past.
        let late = last.addingTimeInterval(86_400)
        #expect(settings.nextCheck(after: last, now: late) == late)
    }

    @Test @MainActor func deletingAllAuditDataLeavesOnlyTheSettingsAndOneEntry() throws {
        let archive = try AuditedArchive(records: 300)
        let store = try archive.open()
        var settings = MonitoringSettings.defaults
        settings.checkFrequency = .every24Hours
        try store.saveSettings(settings)
        let model = SettingsModel(archive: store)
        model.refresh()
        model.confirmDeletion()
        #expect(try store.fetchOverview().captures == 2, "nothing is deleted before the user is asked")
        model.askToDeleteAllAuditData()
        #expect(model.isConfirmingDeletion)
        model.confirmDeletion()
        #expect(!model.isConfirmingDeletion)
        #expect(model.errorMessage == nil)
        let overview = try store.fetchOverview()
        #expect(overview.captures == 0)
        #expect(overview.recordsTracked == 0)
        #expect(overview.anomaliesAllTime == 0)
        #expect(try store.fetchAuditEntries().map(\.event) == ["auditDataDeleted"])
        #expect(try store.fetchSettings().checkFrequency == .every24Hours)
    }
}

/// The app re-registers its observers when the monitored types change: the model says so once
/// the settings are saved, and not when they are refused.
@Suite("Settings: saved")
@MainActor
struct SettingsSavedTests {
    @Test func savingTellsTheAppWhatIsMonitoredNow() throws {
        let archive = try AuditedArchive(records: 300)
        let model = SettingsModel(archive: try archive.open())
        var told: [MonitoringSettings] = []
        model.onSaved = { told.append($0) }
        var chosen = MonitoringSettings.defaults
        chosen.monitoredTypes = ["HKQuantityTypeIdentifierHeartRate"]
        model.save(chosen)
        #expect(told.map(\.monitoredTypes) == [["HKQuantityTypeIdentifierHeartRate"]])
        chosen.monitoredTypes = ["HKQuantityTypeIdentifierNoSuchThing"]
        model.save(chosen)
        #expect(model.errorMessage != nil)
        #expect(told.count == 1, "a refused change re-registers nothing")
    }
}

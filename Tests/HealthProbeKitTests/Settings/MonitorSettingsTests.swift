import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The settings the screens change are what the live monitor does.
@Suite("Health monitor: settings")
struct MonitorSettingsTests {
    typealias Timeline = LiveTimeline

    @Test func theMonitorReadsOnlyTheMonitoredTypes() async throws {
        let timeline = try Timeline()
        var settings = MonitoringSettings.defaults
        settings.monitoredTypes = [Timeline.steps]
        try timeline.support.openArchive().saveSettings(settings)
        try await timeline.store.save(timeline.heartRate(daysAgo: 1))
        try await timeline.store.save(timeline.steps(daysAgo: 1))
        let monitor = try timeline.monitor()
        let outcome = await monitor.runCheck()
        #expect(outcome.kind == .completed)
        #expect(outcome.capture?.records == 1)
        let types = try timeline.support.openArchive().fetchOverview().types.map(\.type)
        #expect(types == [Timeline.steps])
    }

    @Test func theAlertThresholdDecidesWhatNotifies() async throws {
        let (timeline, monitor) = try await HealthMonitorTests.started()
        var settings = MonitoringSettings.defaults
        settings.alertThreshold = .warning
        settings.alertThresholdChosen = true
        try timeline.support.openArchive().saveSettings(settings)
        timeline.clock.advance(by: 86_400)
        try await timeline.store.saveRepeatedly(timeline.steps(daysAgo: 0.5), copies: 4)
        let outcome = await monitor.runCheck()
        #expect(outcome.anomalies.map(\.severity) == [.info])
        #expect(outcome.alerts.isEmpty, "an info anomaly does not notify at a warning threshold")
        settings.alertThreshold = .info
        try timeline.support.openArchive().saveSettings(settings)
        timeline.clock.advance(by: 86_400)
        try await timeline.store.saveRepeatedly(timeline.steps(daysAgo: 0.25), copies: 4)
        #expect(await monitor.runCheck().alerts.count == 1)
    }

    @Test func theNextCheckFollowsTheChosenFrequency() async throws {
        let (timeline, monitor) = try await HealthMonitorTests.started()
        var settings = MonitoringSettings.defaults
        settings.checkFrequency = .every12Hours
        try timeline.support.openArchive().saveSettings(settings)
        let last = try #require(await monitor.lastChecked)
        #expect(try await monitor.nextCheckDate() == last.addingTimeInterval(12 * 3_600))
    }
}

import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// What a restore puts back from a phone's own store: the samples that vanished silently, never
/// those the user deleted in Health (their tombstones say so).
@Suite("Restore: a phone's losses")
struct RestoreSelectionTests {
    @Test func silentLossesArePutBackAndTheUsersDeletionsAreNot() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.verificationEvery = 1
        let monitor = try timeline.monitor()
        for hour in 0..<48 {
            try await timeline.store.save(timeline.heartRate(daysAgo: Double(hour) / 24, value: 60 + Double(hour % 9)))
        }
        _ = await monitor.runCheck()
        let now = timeline.clock.now.timeIntervalSince1970
        // Six hours the user deleted (tombstones), then nine that vanished with no word.
        let deleted = await timeline.store.deleteAsUser(of: LiveTimeline.heartRate) {
            $0.startDate > now - 5.5 * 3_600
        }
        let lost = await timeline.store.loseSilently(of: LiveTimeline.heartRate) {
            $0.startDate < now - 30 * 3_600 && $0.startDate > now - 39 * 3_600
        }
        #expect(deleted == 6 && lost == 9)
        let outcome = try await timeline.nextDay(monitor)
        #expect(outcome.summaries.contains { $0.hasPrefix("silent_deletion") }, "\(outcome.summaries)")

        let archive = try timeline.support.openArchive()
        let capture = try #require(outcome.capture).id
        let selection = try archive.lostRecords(capture: capture)
        #expect(selection.records.count == 9)
        #expect(selection.deleted == 0 && selection.back == 0)
        #expect(selection.records.allSatisfy { ($0.startDate ?? 0) < now - 30 * 3_600 })
        // The user's deletions are gone as deleted, and no restore of any anomaly holds them.
        let anomalies = try archive.fetchAnomalies().filter { $0.type == .silentDeletion }.map(\.id)
        let every = try archive.lostRecords(anomalies: anomalies)
        #expect(every.records.allSatisfy { ($0.startDate ?? 0) < now - 6 * 3_600 })
        let file = RestoreFile(selection)
        #expect(file.records.count == 9 && file.records.allSatisfy { $0.unit == "count/min" && $0.value != nil })
    }
}

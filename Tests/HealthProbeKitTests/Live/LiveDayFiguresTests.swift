import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The live path feeds the day figures as an export does: steps a person typed into the Health
/// app come first in Health's order, whichever check brought them.
@Suite("Live captures: day figures")
struct LiveDayFiguresTests {
    @Test func stepsEnteredByHandInALaterCheckLeadTheirDay() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.verificationEvery = 100
        let monitor = try timeline.monitor()
        try await timeline.store.save(timeline.steps(daysAgo: 0.5, value: 300))
        _ = await monitor.runCheck()

        // The same minute typed in by hand, brought by the next (incremental) check.
        let watchSteps = timeline.steps(daysAgo: 0.5, value: 300)
        let typed = HealthSample(
            kind: .quantity, type: LiveTimeline.steps, sourceName: "Health", unit: "count", value: 250,
            startDate: watchSteps.startDate, endDate: watchSteps.endDate, metadata: ["HKWasUserEntered": "1"])
        try await timeline.store.save(typed)
        let second = await monitor.runCheck()
        #expect(second.capture != nil)

        let archive = try timeline.support.openArchive()
        let day = Int64((watchSteps.startDate / 86_400).rounded(.down))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let figures = try archive.dayFigures(types: [LiveTimeline.steps], days: day...day, zone: utc)
        let figure = try #require(figures.first)
        #expect(abs(figure.value - 250) < 1e-9)
        #expect(figure.sources.first?.source == "Health (entered by hand)")
        #expect(figure.sources.first?.tier == .enteredByHand)
        #expect(figure.sources.dropFirst().first?.counted == 0)
    }
}

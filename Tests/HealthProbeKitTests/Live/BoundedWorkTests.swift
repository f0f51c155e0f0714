import Foundation
import Testing

@testable import HealthProbeKit

/// A background wake's work ends within its time: cut short when it overruns, never waited on
/// longer than it takes.
@Suite("Bounded work")
struct BoundedWorkTests {
    final class Flags: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ value: String) { lock.withLock { values.append(value) } }
        var all: [String] { lock.withLock { values } }
    }

    @Test func workThatOverrunsIsCancelledWhenItsTimeIsUp() async {
        let flags = Flags()
        let started = Date()
        await BoundedWork.run(within: 0.2) {
            do {
                try await Task.sleep(nanoseconds: 20_000_000_000)
                flags.add("finished")
            } catch {
                flags.add("cancelled")
            }
        }
        #expect(flags.all == ["cancelled"])
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func workThatEndsInTimeIsNotWaitedOnLonger() async {
        let flags = Flags()
        let started = Date()
        await BoundedWork.run(within: 20) { flags.add("finished") }
        #expect(flags.all == ["finished"])
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A monitor's check cut short by its time keeps what it did; the next one completes it.
    @Test func aCheckCutShortResumesNextTime() async throws {
        let timeline = try LiveTimeline()
        for day in 0..<3 {
            for hour in 0..<24 {
                try await timeline.store.save(timeline.heartRate(daysAgo: Double(day) + Double(hour) / 24))
            }
        }
        let monitor = try timeline.monitor()
        await BoundedWork.run(within: 0) { _ = await monitor.runCheck() }
        let outcome = await monitor.runCheck()
        let archive = try timeline.support.openArchive()
        #expect(try archive.fetchOverview().recordsTracked == 72, "\(outcome)")
    }
}

import Foundation
import Testing

@testable import HealthProbeArchive
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

    /// Work that would run for an hour is cancelled once its time is up (no timing is asserted:
    /// on a loaded machine the pool may start either task late, but only a cancellation ends it).
    /// The limit is far from the hour yet long enough for a full run's busy pool, which once kept
    /// the tasks from starting for over two minutes.
    @Test(.timeLimit(.minutes(10))) func workThatOverrunsIsCancelledWhenItsTimeIsUp() async {
        let flags = Flags()
        let outcome = await BoundedWork.run(within: 0.2) {
            do {
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
                flags.add("finished")
            } catch {
                flags.add("cancelled")
            }
        }
        #expect(flags.all == ["cancelled"])
        #expect(outcome == .cutShort)
    }

    /// Work that ignores its cancellation (a framework call that cannot be stopped) does not hold
    /// the caller past the grace: the background task still reports back in time.
    @Test(.timeLimit(.minutes(10))) func workThatCannotBeStoppedIsLeftAfterTheGrace() async {
        let gate = Gate()
        let outcome = await BoundedWork.run(within: 0.1, grace: 0.2) { await gate.wait() }
        #expect(outcome == .abandoned)
        gate.open()
    }

    /// The caller's own cancellation (a background task's expiry) cancels the work at once.
    @Test(.timeLimit(.minutes(10))) func theCallersCancellationCancelsTheWork() async {
        let flags = Flags()
        let caller = Task {
            await BoundedWork.run(within: 3_600) {
                do {
                    try await Task.sleep(nanoseconds: 3_600_000_000_000)
                    flags.add("finished")
                } catch {
                    flags.add("cancelled")
                }
            }
        }
        caller.cancel()
        #expect(await caller.value == .cutShort)
        #expect(flags.all == ["cancelled"])
    }

    /// A wait only the test ends, whatever cancellation says.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: CheckedContinuation<Void, Never>?
        private var opened = false

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = lock.withLock {
                    if !opened { waiting = continuation }
                    return opened
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let resumed = lock.withLock {
                opened = true
                defer { waiting = nil }
                return waiting
            }
            resumed?.resume()
        }
    }

    /// Work that ends at once returns at once: were the hour's timer waited on, this test would
    /// run out of its time limit.
    @Test(.timeLimit(.minutes(10))) func workThatEndsInTimeIsNotWaitedOnLonger() async {
        let flags = Flags()
        let outcome = await BoundedWork.run(within: 3_600) { flags.add("finished") }
        #expect(flags.all == ["finished"])
        #expect(outcome == .finished)
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

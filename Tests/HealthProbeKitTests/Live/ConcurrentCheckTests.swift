import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Observers of several types, the background refresh and Check Now ask for checks at once: the
/// monitor runs one at a time and merges what is asked meanwhile into one more.
@Suite("Health monitor: concurrent requests")
struct ConcurrentCheckTests {
    @Test func requestsDuringACheckAreMergedIntoOneMore() async throws {
        let timeline = try LiveTimeline()
        try await timeline.writeDay()
        let monitor = try timeline.monitor()
        let outcomes = await withTaskGroup(of: CheckOutcome.self) { group in
            for _ in 0..<6 { group.addTask { await monitor.runCheck() } }
            var outcomes: [CheckOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.allSatisfy { $0.kind == .completed })
        let captures = try timeline.support.openArchive().fetchCaptures()
        // The first request's check, then one more for everything asked while it ran.
        #expect(captures.count == 2)
        #expect(Set(outcomes.compactMap { $0.capture?.id }) == Set(captures.map(\.id)))
        #expect(outcomes.filter { $0.capture?.id == captures[0].id }.count == 1)
        #expect(captures[0].new == 24 && captures[1].new == 0)
        // Written one after the other: the second began after the first completed.
        let first = try #require(captures[0].completedAt)
        #expect(captures[1].startedAt >= first)
    }

    @Test func aCallerCancelledCutsOffTheCheckItWaitsOnAndTheNextResumesIt() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 5
        try await timeline.writeDay(count: 200)
        let monitor = try timeline.monitor()
        let waiting = Task { await monitor.runCheck() }
        waiting.cancel()
        let cut = await waiting.value
        #expect(cut.kind == .cutOff)
        let next = await monitor.runCheck()
        #expect(next.kind == .completed)
        let archive = try timeline.support.openArchive()
        #expect(try archive.countPresentRecords() == 200)
    }
}

import Foundation
import GRDB
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A verification scan reads each type a page at a time, and one cut short marks nothing gone.
@Suite("Health monitor: streaming verification")
struct StreamingVerificationTests {
    /// The simulated store, counting what each read returns, and failing reads on request as a
    /// phone locked mid-scan does.
    actor CountingSource: HealthDataSource {
        let store: SimulatedHealthStore
        private(set) var largestPage = 0
        private(set) var reads = 0
        var failFromRead: Int?

        init(_ store: SimulatedHealthStore) {
            self.store = store
        }

        func failing(fromRead read: Int?) { failFromRead = read }

        func authorization() async -> HealthAuthorization { await store.authorization() }

        func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage {
            reads += 1
            if let failFromRead, reads >= failFromRead { throw HealthDataSourceError.databaseInaccessible }
            let page = try await store.changes(of: type, since: anchor, limit: limit)
            largestPage = max(largestPage, page.added.count + page.deleted.count)
            return page
        }
    }

    @Test func aScanReadsPagesAndOneCutShortMarksNothingGone() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 50
        timeline.configuration.verificationEvery = 1
        for day in 0..<14 {
            for hour in 0..<24 {
                try await timeline.store.save(timeline.heartRate(daysAgo: Double(day) + Double(hour) / 24))
            }
        }
        let source = CountingSource(timeline.store)
        let monitor = try HealthMonitor(
            source: source, store: try timeline.support.openArchive(),
            types: HealthKitCatalog.types.filter { $0.identifier == LiveTimeline.heartRate },
            configuration: timeline.configuration, clock: timeline.clock.reading)
        let first = await monitor.runCheck()
        #expect(first.verified)
        #expect(first.capture?.new == 336)
        // 336 samples came in pages of at most 50, never all at once, and the first sync read
        // the store once: its scan from the beginning is also its change read.
        #expect(await source.largestPage == 50)
        #expect(await source.reads == 7)

        // A day vanishes without a tombstone; the next scan is cut off by a lock after 3 pages.
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 5 * 86_400
        await timeline.store.deleteAsUser(of: LiveTimeline.heartRate) {
            $0.startDate > cutoff - 86_400 && $0.startDate <= cutoff
        }
        await timeline.store.purgeTombstones()
        timeline.clock.advance(by: 86_400)
        await source.failing(fromRead: await source.reads + 4)
        let cut = await monitor.runCheck()
        #expect(cut.kind == .deferred)
        let archive = try timeline.support.openArchive()
        let gone = try await archive.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL") ?? -1
        }
        #expect(gone == 0)

        await source.failing(fromRead: nil)
        let whole = await monitor.runCheck()
        #expect(whole.verified)
        #expect(whole.summaries == ["silent_deletion \(LiveTimeline.heartRate) 24"])
    }

    /// A verification that finds a loss marks what it meets by UUID: samples that came back are
    /// counted back, not stored twice, and only what vanished since is gone; a type whose
    /// UUIDs add up is not touched.
    @Test func aLossFoundBesideReturnsCountsEachOnce() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 40
        timeline.configuration.verificationEvery = 1
        for day in 0..<14 {
            for hour in 0..<24 {
                try await timeline.store.save(timeline.heartRate(daysAgo: Double(day) + Double(hour) / 24))
            }
            try await timeline.store.save(timeline.steps(daysAgo: Double(day)))
        }
        let monitor = try timeline.monitor()
        #expect(await monitor.runCheck().capture?.new == 350)

        let now = timeline.clock.now.timeIntervalSince1970
        func day(_ daysAgo: Double) -> (HealthSample) -> Bool {
            { $0.startDate > now - (daysAgo + 1) * 86_400 && $0.startDate <= now - daysAgo * 86_400 }
        }
        let lost = await timeline.store.samples(of: LiveTimeline.heartRate, where: day(5))
        #expect(await timeline.store.loseSilently(of: LiveTimeline.heartRate, where: day(5)) == 24)
        timeline.clock.advance(by: 3_600)
        let first = await monitor.runCheck()
        #expect(first.capture?.gone == 24)

        for sample in lost { try await timeline.store.save(sample) }
        #expect(await timeline.store.loseSilently(of: LiveTimeline.heartRate, where: day(9)) == 24)
        timeline.clock.advance(by: 3_600)
        let second = await monitor.runCheck()
        #expect(second.verified)
        #expect(second.capture?.new == 24)
        #expect(second.capture?.gone == 24)
        let archive = try timeline.support.openArchive()
        let live = try await archive.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT type, COUNT(*) AS n FROM record WHERE goneCapture IS NULL GROUP BY type ORDER BY type"
            ).map { "\($0["type"] as String) \($0["n"] as Int)" }
        }
        #expect(live == ["\(LiveTimeline.heartRate) 312", "\(LiveTimeline.steps) 14"])
    }
}

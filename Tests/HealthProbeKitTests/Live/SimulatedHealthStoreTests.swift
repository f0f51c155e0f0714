import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

@Suite("Simulated Health store: HealthKit's semantics")
struct SimulatedHealthStoreTests {
    static let type = LiveTimeline.heartRate

    @Test func anchorsGrowAndAChangeIsReadOnce() async throws {
        let timeline = try LiveTimeline()
        let store = timeline.store
        let first = try await store.save(timeline.heartRate(daysAgo: 1))
        let all = try await store.changes(of: Self.type, since: nil, limit: 100)
        #expect(all.added.map(\.uuid) == [first.uuid])
        let second = try await store.save(timeline.heartRate(daysAgo: 0.5))
        let next = try await store.changes(of: Self.type, since: all.anchor, limit: 100)
        #expect(next.added.map(\.uuid) == [second.uuid])
        #expect(
            SimulatedHealthStore.position(try #require(next.anchor))
                > SimulatedHealthStore.position(try #require(all.anchor)))
        let none = try await store.changes(of: Self.type, since: next.anchor, limit: 100)
        #expect(none.added.isEmpty && none.deleted.isEmpty && none.anchor == next.anchor)
        #expect(try await store.changes(of: LiveTimeline.steps, since: nil, limit: 100).added.isEmpty)
    }

    @Test func pagesFollowAnchorOrderUntilAShortPage() async throws {
        let timeline = try LiveTimeline()
        var saved: [UUID] = []
        for day in 0..<5 { saved.append(try await timeline.store.save(timeline.heartRate(daysAgo: Double(day))).uuid) }
        var anchor: HealthAnchor?
        var read: [UUID] = []
        var pages: [Bool] = []
        repeat {
            let page = try await timeline.store.changes(of: Self.type, since: anchor, limit: 2)
            read += page.added.map(\.uuid)
            pages.append(page.mayHaveMore)
            anchor = page.anchor
        } while pages.last == true
        #expect(read == saved)
        #expect(pages == [true, true, false])
    }

    @Test func deletionsLeaveTombstonesUntilPurged() async throws {
        let timeline = try LiveTimeline()
        let sample = try await timeline.store.save(
            timeline.heartRate(
                daysAgo: 1, metadata: ["HKMetadataKeySyncIdentifier": "s-1", "HKMetadataKeySyncVersion": "3"]))
        let before = try await timeline.store.changes(of: Self.type, since: nil, limit: 100).anchor
        await timeline.store.delete([sample.uuid])
        let page = try await timeline.store.changes(of: Self.type, since: before, limit: 100)
        #expect(page.deleted == [DeletedSample(uuid: sample.uuid, syncIdentifier: "s-1", syncVersion: 3)])
        await timeline.store.purgeTombstones()
        #expect(try await timeline.store.changes(of: Self.type, since: before, limit: 100).deleted.isEmpty)
        #expect(await timeline.store.samples(of: Self.type).isEmpty)
    }

    @Test func aHigherSyncVersionReplacesAndALowerOneIsRejected() async throws {
        let timeline = try LiveTimeline()
        func version(_ number: Int) -> HealthSample {
            timeline.heartRate(
                daysAgo: 1, value: 60 + Double(number),
                metadata: ["HKMetadataKeySyncIdentifier": "s-1", "HKMetadataKeySyncVersion": String(number)])
        }
        let old = try await timeline.store.save(version(1))
        let new = try await timeline.store.save(version(2))
        let page = try await timeline.store.changes(of: Self.type, since: nil, limit: 100)
        #expect(page.added.map(\.uuid) == [new.uuid])
        #expect(page.deleted.map(\.uuid) == [old.uuid])
        await #expect(throws: SimulatedHealthStore.SaveError.olderSyncVersion) {
            try await timeline.store.save(version(2))
        }
        #expect(await timeline.store.samples(of: Self.type).map(\.uuid) == [new.uuid])
    }

    @Test func aLockedDeviceRefusesAndReadAccessOffLooksEmpty() async throws {
        let timeline = try LiveTimeline()
        try await timeline.store.save(timeline.heartRate(daysAgo: 1))
        await timeline.store.setLocked(true)
        await #expect(throws: HealthDataSourceError.databaseInaccessible) {
            try await timeline.store.changes(of: Self.type, since: nil, limit: 10)
        }
        await timeline.store.setLocked(false)
        await timeline.store.setReadAccess(false)
        #expect(try await timeline.store.changes(of: Self.type, since: nil, limit: 10).added.isEmpty)
        #expect(await timeline.store.authorization() == .requested)
    }

    @Test func silentLossLeavesNoTombstone() async throws {
        let timeline = try LiveTimeline()
        for day in 0..<4 { try await timeline.store.save(timeline.heartRate(daysAgo: Double(day))) }
        let anchor = try await timeline.store.changes(of: Self.type, since: nil, limit: 100).anchor
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 1.5 * 86_400
        #expect(await timeline.store.loseSilently(of: Self.type) { $0.startDate < cutoff } == 2)
        let page = try await timeline.store.changes(of: Self.type, since: anchor, limit: 100)
        #expect(page.added.isEmpty && page.deleted.isEmpty)
        #expect(await timeline.store.count(of: Self.type) == 2)
    }
}

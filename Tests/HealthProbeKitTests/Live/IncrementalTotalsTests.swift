import Foundation
import GRDB
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A live capture's per-type totals are carried from the previous capture with what arrived and
/// what went; after every kind of check they equal the totals read from every live record.
@Suite("Live captures: incremental totals")
struct IncrementalTotalsTests {
    /// The capture's stored totals and the ones read from every record, side by side.
    static func compare(_ archive: ArchiveStore, capture: Int64) throws {
        try archive.writer.read { db in
            let stored = try #require(try CaptureAggregates.stored(db, capture: capture)).types
            let recount = LiveCapture(
                captureID: capture, previousCaptureID: nil, recordIDFloor: 0, isFull: false, asOf: 0)
            let full = try recount.presentAggregates(db).types
            #expect(Set(stored.keys) == Set(full.keys))
            for (type, totals) in full {
                var expected = totals
                expected.flushPendingSource()
                let actual = try #require(stored[type])
                #expect(actual.count == expected.count, "\(type) in capture \(capture)")
                #expect(actual.checksum == expected.checksum, "\(type) in capture \(capture)")
                #expect(actual.sources == expected.sources, "\(type) in capture \(capture)")
                #expect(Set(actual.days.keys) == Set(expected.days.keys), "\(type) in capture \(capture)")
                for (day, bin) in expected.days {
                    let other = try #require(actual.days[day])
                    #expect(other.count == bin.count && other.hash == bin.hash && other.valueCount == bin.valueCount)
                    #expect(abs(other.valueSum - bin.valueSum) < 1e-6)
                }
            }
        }
    }

    @Test func afterArrivalsDeletionsLossesReturnsAndReplacementsTheTotalsAreExact() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.verificationEvery = 3
        let (_, monitor) = (timeline, try timeline.monitor())
        for day in 0..<10 {
            for hour in 0..<24 {
                try await timeline.store.save(timeline.heartRate(daysAgo: Double(day) + Double(hour) / 24))
            }
            try await timeline.store.save(timeline.steps(daysAgo: Double(day)))
        }
        let archive = try timeline.support.openArchive()
        var checks: [CheckOutcome] = []
        /// Each check's totals are compared the moment it completes, against what is present then.
        func record(_ outcome: CheckOutcome) throws {
            checks.append(outcome)
            try Self.compare(archive, capture: try #require(outcome.capture).id)
        }
        try record(await monitor.runCheck())
        // A day deleted by the user, a silent loss whose tombstones are purged, a sync
        // replacement, then enough days for a verification scan to find the loss.
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 2 * 86_400
        await timeline.store.deleteAsUser(of: LiveTimeline.heartRate) {
            $0.startDate > cutoff - 86_400 && $0.startDate <= cutoff
        }
        try record(try await timeline.nextDay(monitor))
        let older = timeline.clock.now.timeIntervalSince1970 - 6 * 86_400
        await timeline.store.deleteAsUser(of: LiveTimeline.steps) { $0.startDate < older }
        await timeline.store.purgeTombstones()
        let sync = ["HKMetadataKeySyncIdentifier": "s-1"]
        try await timeline.store.save(
            timeline.heartRate(
                daysAgo: 0.5, value: 70, metadata: sync.merging(["HKMetadataKeySyncVersion": "1"]) { $1 }))
        try record(try await timeline.nextDay(monitor))
        try await timeline.store.save(
            timeline.heartRate(
                daysAgo: 1.5, value: 71, metadata: sync.merging(["HKMetadataKeySyncVersion": "2"]) { $1 }))
        for _ in 0..<3 { try record(try await timeline.nextDay(monitor)) }
        #expect(checks.contains { $0.verified && $0.summaries.contains { $0.hasPrefix("silent_deletion") } })
        #expect(checks.count == 6)
    }
}

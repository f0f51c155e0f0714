import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The computed Watch store behind the phone benchmark: the same samples in every process, and
/// a first sync of it over many windows archives exactly what it holds.
@Suite("Synthetic Watch store")
struct SyntheticWatchStoreTests {
    @Test func twoStoresWithTheSameParametersHoldTheSameSamples() async throws {
        let one = SyntheticWatchStore(days: 4)
        let other = SyntheticWatchStore(days: 4)
        // 2,779 samples a day, and a workout every other day (no weekly ones in four days).
        #expect(one.generatedCount == 4 * 2_779 + 2)
        for type in one.types {
            let first = try await one.changes(of: type, since: nil, limit: 100_000)
            let second = try await other.changes(of: type, since: nil, limit: 100_000)
            #expect(first.added == second.added)
            #expect(first.mayHaveMore == false)
            #expect(Set(first.added.map(\.uuid)).count == first.added.count)
            #expect(first.added.allSatisfy { $0.startDate >= one.firstDay && $0.startDate < one.firstDay + 4 * 86_400 })
        }
    }

    @Test func aDayAddedAndDeletionsComeAfterEverythingElse() async throws {
        let store = SyntheticWatchStore(days: 2)
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        let before = try await store.changes(of: heartRate, since: nil, limit: 100_000)
        await store.addDay()
        let gone = await store.delete([0, 5], of: heartRate)
        let after = try await store.changes(of: heartRate, since: before.anchor, limit: 100_000)
        #expect(after.added.count == 360)
        #expect(after.deleted.map(\.uuid) == gone)
        let everything = try await store.changes(of: heartRate, since: nil, limit: 100_000)
        #expect(everything.added.count == 3 * 360 - 2)
    }

    @Test func aFirstSyncOverManyWindowsArchivesExactlyWhatTheStoreHolds() async throws {
        let support = try ArchiveTestSupport()
        let store = SyntheticWatchStore(days: 3)
        var configuration = HealthMonitor.Configuration()
        configuration.pageLimit = 500
        let now = Date(timeIntervalSince1970: await store.endOfData + 600)
        let source = ResumableCheckTests.WindowedSource(store)
        var outcome: CheckOutcome
        var windows = 0
        repeat {
            // Each window reads three pages, then its time runs out.
            await source.newWindow(pages: 3)
            let monitor = try HealthMonitor(
                source: source, store: try support.openArchive(),
                types: HealthKitCatalog.types.filter { store.types.contains($0.identifier) },
                configuration: configuration, clock: { now })
            outcome = await Task { await monitor.runCheck() }.value
            windows += 1
        } while outcome.kind == .cutOff && windows < 200
        #expect(outcome.kind == .completed)
        #expect(outcome.anomalies.isEmpty)
        let archive = try support.openArchive()
        let held = try await archive.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NULL AND healthKitUUID IS NOT NULL") ?? 0
        }
        #expect(held == store.generatedCount)
        // 8,338 samples over eleven types in pages of 500: two dozen reads, three a window.
        #expect(windows > 5)
    }
}

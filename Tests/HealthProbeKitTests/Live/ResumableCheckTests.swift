import Foundation
import GRDB
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A check cut off at any page keeps what it stored, and the next one resumes after it: a first
/// sync of a big store completes over as many background windows as it needs.
@Suite("Health monitor: resumable checks")
struct ResumableCheckTests {
    /// The simulated store, cutting each check off after so many pages — as a background task's
    /// expiration handler cancels the check's task — and counting the reads.
    actor WindowedSource: HealthDataSource {
        let store: any HealthDataSource
        var pagesPerWindow: Int?
        private(set) var reads = 0
        private(set) var readsThisWindow = 0

        init(_ store: any HealthDataSource) {
            self.store = store
        }

        func newWindow(pages: Int?) {
            pagesPerWindow = pages
            readsThisWindow = 0
        }

        func authorization() async -> HealthAuthorization { await store.authorization() }

        func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage {
            reads += 1
            readsThisWindow += 1
            let page = try await store.changes(of: type, since: anchor, limit: limit)
            if let pagesPerWindow, readsThisWindow >= pagesPerWindow {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return page
        }
    }

    static let types = [LiveTimeline.heartRate, LiveTimeline.steps]

    /// Two weeks synced in pages of 50, every later check a verification.
    func syncedTwoWeeksVerifyingEveryCheck() async throws -> (LiveTimeline, WindowedSource) {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 50
        timeline.configuration.verificationEvery = 1
        try await fillTwoWeeks(timeline)
        let source = WindowedSource(timeline.store)
        #expect(try await window(timeline, source).kind == .completed)
        return (timeline, source)
    }

    func monitor(_ timeline: LiveTimeline, _ source: WindowedSource) throws -> HealthMonitor {
        try HealthMonitor(
            source: source, store: try timeline.support.openArchive(),
            types: HealthKitCatalog.types.filter { Self.types.contains($0.identifier) },
            configuration: timeline.configuration, clock: timeline.clock.reading)
    }

    /// One check in its own task, as a background task runs it (the cut cancels that task).
    func window(_ timeline: LiveTimeline, _ source: WindowedSource) async throws -> CheckOutcome {
        let monitor = try monitor(timeline, source)
        return await Task { await monitor.runCheck() }.value
    }

    /// Two weeks of hourly heart rates and steps: 672 samples, 14 pages of 50.
    func fillTwoWeeks(_ timeline: LiveTimeline) async throws {
        for hour in 0..<(14 * 24) {
            let daysAgo = Double(hour) / 24 + 0.01
            try await timeline.store.save(timeline.heartRate(daysAgo: daysAgo, value: 55 + Double(hour % 9)))
            try await timeline.store.save(timeline.steps(daysAgo: daysAgo, value: Double(40 + hour % 13)))
        }
    }

    func archivedUUIDs(_ archive: ArchiveStore) throws -> Set<String> {
        try archive.writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT healthKitUUID FROM record WHERE goneCapture IS NULL"))
        }
    }

    func storeUUIDs(_ store: SimulatedHealthStore) async -> Set<String> {
        var uuids: Set<String> = []
        for type in Self.types { uuids.formUnion(await store.samples(of: type).map(\.uuid.uuidString)) }
        return uuids
    }

    @Test(arguments: [1, 2, 3, 5])
    func aFirstSyncCutOffAfterEveryFewPagesEndsExact(pagesPerWindow: Int) async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 50
        try await fillTwoWeeks(timeline)
        let source = WindowedSource(timeline.store)
        var windows = 0
        var stored = 0
        var outcome: CheckOutcome
        repeat {
            // Each window is a new launch: a new archive connection and a new monitor.
            await source.newWindow(pages: pagesPerWindow)
            outcome = try await window(timeline, source)
            windows += 1
            let now = try archivedUUIDs(try timeline.support.openArchive()).count
            if outcome.kind == .cutOff {
                // Every window keeps the pages it read.
                #expect(now > stored || now == 672)
                #expect(now <= stored + 50 * pagesPerWindow)
            }
            stored = now
            timeline.clock.advance(by: 600)
        } while outcome.kind == .cutOff && windows < 100
        #expect(outcome.kind == .completed)
        #expect(windows == (14 + pagesPerWindow - 1) / pagesPerWindow + (14 % pagesPerWindow == 0 ? 1 : 0))
        #expect(outcome.anomalies.isEmpty)
        #expect(outcome.capture?.new == 672)
        #expect(outcome.capture?.gone == 0)

        let archive = try timeline.support.openArchive()
        #expect(try archivedUUIDs(archive) == (await storeUUIDs(timeline.store)))
        #expect(try archive.fetchAnomalies(.init(includeResolved: true)).isEmpty)
        let state = try MonitorState.load(archive)
        for type in Self.types {
            #expect(
                state.anchors[type] == (try await timeline.store.changes(of: type, since: nil, limit: 10_000).anchor))
        }
        let entries = try archive.fetchAuditEntries()
        #expect(entries.filter { $0.event == "checkCutOff" }.count == windows - 1)
        #expect(entries.filter { $0.event == "checkResumed" }.count == windows - 1)
        #expect(try await archive.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") } == 1)

        // The next check starts from the saved anchors and finds nothing.
        await source.newWindow(pages: nil)
        let next = try await window(timeline, source)
        #expect(next.kind == .completed)
        #expect(next.capture?.new == 0)
        #expect(next.anomalies.isEmpty)
    }

    @Test func whatChangesBetweenWindowsIsReadAsItHappened() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 50
        try await fillTwoWeeks(timeline)
        let source = WindowedSource(timeline.store)
        await source.newWindow(pages: 4)
        #expect(try await window(timeline, source).kind == .cutOff)

        // Between windows the user deletes an early sample (already stored: steps are read
        // first) and a late one (not read yet), and new samples arrive.
        let early = await timeline.store.samples(of: LiveTimeline.steps).first!
        let late = await timeline.store.samples(of: LiveTimeline.heartRate).last!
        await timeline.store.delete([early.uuid, late.uuid])
        timeline.clock.advance(by: 3_600)
        try await timeline.store.save(timeline.heartRate(daysAgo: 0.001, value: 70))
        await source.newWindow(pages: nil)
        let outcome = try await window(timeline, source)
        #expect(outcome.kind == .completed)
        // Deleted in Health, so neither a silent loss nor a record still held.
        #expect(outcome.anomalies.isEmpty)
        let archive = try timeline.support.openArchive()
        #expect(try archivedUUIDs(archive) == (await storeUUIDs(timeline.store)))
        let reasons = try await archive.writer.read { db in
            try String.fetchAll(db, sql: "SELECT goneReason FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(reasons == ["deleted"])
        try IncrementalTotalsTests.compare(archive, capture: try #require(outcome.capture).id)

        // A later check of changes, cut off after every page, with a sample read in one window
        // and deleted before the next: its totals equal a recount.
        timeline.clock.advance(by: 86_400)
        for hour in 0..<60 { try await timeline.store.save(timeline.heartRate(daysAgo: Double(hour) / 60)) }
        await source.newWindow(pages: 1)
        #expect(try await window(timeline, source).kind == .cutOff)
        let readAlready = await timeline.store.samples(of: LiveTimeline.heartRate).last!
        await timeline.store.delete([readAlready.uuid])
        var delta: CheckOutcome
        repeat {
            await source.newWindow(pages: 1)
            delta = try await window(timeline, source)
        } while delta.kind == .cutOff
        #expect(delta.kind == .completed)
        #expect(delta.verified == false)
        #expect(try archivedUUIDs(archive) == (await storeUUIDs(timeline.store)))
        try IncrementalTotalsTests.compare(archive, capture: try #require(delta.capture).id)
    }

    @Test func aVerificationCutOffMarksNothingGoneAndTheResumedOneFindsTheLossExactly() async throws {
        let (timeline, source) = try await syncedTwoWeeksVerifyingEveryCheck()

        // A day of heart rates vanishes without a tombstone; the verification is cut off twice.
        let dayEnd = timeline.clock.now.timeIntervalSince1970 - 5 * 86_400
        let lost = await timeline.store.loseSilently(of: LiveTimeline.heartRate) {
            $0.startDate > dayEnd - 86_400 && $0.startDate <= dayEnd
        }
        #expect(lost == 24)
        timeline.clock.advance(by: 86_400)
        for attempt in 0..<2 {
            await source.newWindow(pages: 3)
            let cut = try await window(timeline, source)
            #expect(cut.kind == .cutOff, "attempt \(attempt)")
            let gone = try await timeline.support.openArchive().writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL")
            }
            #expect(gone == 0)
        }
        await source.newWindow(pages: nil)
        let whole = try await window(timeline, source)
        #expect(whole.kind == .completed)
        #expect(whole.verified)
        #expect(whole.summaries == ["silent_deletion \(LiveTimeline.heartRate) 24"])
        // Only the type whose UUIDs did not add up to the archive's was read a second time, marking.
        let repeated = try timeline.support.openArchive().fetchAuditEntries().filter { $0.event == "scanRepeated" }
        #expect(
            repeated.map(\.message) == [
                "capture 2: the scan of \(LiveTimeline.heartRate) met 312 samples where the archive holds 336, not the same ones; reading it again to find which are missing"
            ])
    }

    @Test func aVerificationWhoseUUIDsAddUpReadsEachTypeOnceAndStoresOnlyWhatIsNew() async throws {
        let (timeline, source) = try await syncedTwoWeeksVerifyingEveryCheck()
        // A day of new heart rates, then a verification: the change read stores the new ones, the
        // scan adds everything up and finds the archive's sum.
        timeline.clock.advance(by: 86_400)
        try await timeline.writeDay()
        let before = await source.reads
        let verified = try await window(timeline, source)
        #expect(verified.kind == .completed)
        #expect(verified.verified)
        #expect(verified.anomalies.isEmpty)
        #expect(verified.capture?.new == 24)
        #expect(verified.capture?.gone == 0)
        // Heart rates (360 samples, 8 pages) and steps (336, 7 pages), each read once, plus the
        // change read's one page each.
        #expect(await source.reads - before == 8 + 7 + 2)
        let archive = try timeline.support.openArchive()
        #expect(try archive.fetchAuditEntries().filter { $0.event == "scanRepeated" }.isEmpty)
        #expect(try archivedUUIDs(archive) == (await storeUUIDs(timeline.store)))
    }

    @Test func aSampleArrivingBetweenAVerificationsWindowsIsStoredAndTakenForNoLoss() async throws {
        let (timeline, source) = try await syncedTwoWeeksVerifyingEveryCheck()
        timeline.clock.advance(by: 86_400)
        await source.newWindow(pages: 4)
        #expect(try await window(timeline, source).kind == .cutOff)
        // Written after the change read, before the scan reaches the end: the digests differ.
        try await timeline.store.save(timeline.heartRate(daysAgo: 0.001, value: 61))
        await source.newWindow(pages: nil)
        let whole = try await window(timeline, source)
        #expect(whole.kind == .completed)
        #expect(whole.anomalies.isEmpty)
        #expect(whole.capture?.gone == 0)
        let archive = try timeline.support.openArchive()
        let repeated = try archive.fetchAuditEntries().filter { $0.event == "scanRepeated" }
        #expect(
            repeated.map(\.message) == [
                "capture 2: the scan of \(LiveTimeline.heartRate) met 337 samples where the archive holds 336, not the same ones; reading it again to find which are missing"
            ])
        #expect(try archivedUUIDs(archive) == (await storeUUIDs(timeline.store)))
        let copies = try await archive.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) - COUNT(DISTINCT healthKitUUID) FROM record")
        }
        #expect(copies == 0)
    }

    @Test func aCancelledCheckStopsAtTheNextPage() async throws {
        var timeline = try LiveTimeline()
        timeline.configuration.pageLimit = 10
        try await fillTwoWeeks(timeline)
        let source = WindowedSource(timeline.store)
        let monitor = try monitor(timeline, source)
        let check = Task { await monitor.runCheck() }
        check.cancel()
        let outcome = await check.value
        #expect(outcome.kind == .cutOff)
        #expect(await source.reads <= 1)
        #expect(outcome.notes == ["the check was cut off: what it read is stored, and the next check resumes it"])
        let entries = try timeline.support.openArchive().fetchAuditEntries()
        #expect(entries.last?.event == "checkCutOff")
    }
}

@Suite("Health monitor: UUID text")
struct UUIDTextTests {
    @Test func theArchiveTextIsFoundationsUUIDString() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let uuid = UUID(
                uuid: (0..<16).reduce(into: UUID().uuid) { bytes, index in
                    withUnsafeMutableBytes(of: &bytes) { $0[index] = UInt8.random(in: 0...255, using: &generator) }
                })
            #expect(uuid.archiveText == uuid.uuidString)
        }
        #expect(
            UUID(uuidString: "00000000-0000-0000-0000-000000000000")!.archiveText
                == "00000000-0000-0000-0000-000000000000")
        #expect(
            UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!.archiveText
                == "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")
    }
}

import Foundation
import GRDB
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The live monitor over scripted timelines of a simulated store.
@Suite("Health monitor: scripted timelines")
struct HealthMonitorTests {
    typealias Timeline = LiveTimeline

    /// A store with two weeks of heart rates, checked once (the first check verifies).
    static func started(_ configure: (inout Timeline) -> Void = { _ in }) async throws -> (Timeline, HealthMonitor) {
        var timeline = try Timeline()
        configure(&timeline)
        for day in 0..<14 {
            for hour in 0..<24 {
                try await timeline.store.save(timeline.heartRate(daysAgo: Double(day) + Double(hour) / 24))
            }
        }
        let monitor = try timeline.monitor()
        let first = await monitor.runCheck()
        #expect(first.kind == .completed)
        #expect(first.verified)
        #expect(first.capture?.new == 14 * 24)
        #expect(first.anomalies.isEmpty, "\(first.summaries)")
        #expect(await monitor.currentStatus == .healthy)
        return (timeline, monitor)
    }

    @Test func anExplicitDeletionIsAnAuditEntryNeverASilentDeletion() async throws {
        let (timeline, monitor) = try await Self.started { $0.configuration.verificationEvery = 2 }
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 3 * 86_400
        let deleted = await timeline.store.deleteAsUser(of: Timeline.heartRate) {
            $0.startDate > cutoff - 86_400 && $0.startDate <= cutoff
        }
        #expect(deleted == 24)
        let second = try await timeline.nextDay(monitor)
        #expect(second.explicitDeletions == 24)
        #expect(second.anomalies.isEmpty, "\(second.summaries)")
        let third = try await timeline.nextDay(monitor)
        #expect(third.verified)
        #expect(third.anomalies.isEmpty, "\(third.summaries)")
        let store = try timeline.support.openArchive()
        #expect(try store.fetchAuditEntries().contains { $0.event == "recordsDeleted" })
        let reasons = try await store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT goneReason FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(reasons == ["deleted"])
    }

    @Test func aDeletionWhoseTombstoneWasPurgedIsFoundByTheVerificationScan() async throws {
        let (timeline, monitor) = try await Self.started { $0.configuration.verificationEvery = 2 }
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 5 * 86_400
        await timeline.store.deleteAsUser(of: Timeline.heartRate) {
            $0.startDate > cutoff - 86_400 && $0.startDate <= cutoff
        }
        await timeline.store.purgeTombstones()
        let delta = try await timeline.nextDay(monitor)
        #expect(!delta.verified)
        #expect(delta.anomalies.isEmpty)
        let verification = try await timeline.nextDay(monitor)
        #expect(verification.verified)
        #expect(verification.summaries == ["silent_deletion \(Timeline.heartRate) 24"])
        // A whole day of a week's heart rates vanished: more than 5 % of the type, critical.
        #expect(verification.anomalies.map(\.severity) == [.critical])
        #expect(await monitor.currentStatus == .critical)
    }

    @Test func aBackfillIsAHistoricalInsertion() async throws {
        let (timeline, monitor) = try await Self.started()
        timeline.clock.advance(by: 86_400)
        try await timeline.store.backfill((0..<5).map { timeline.heartRate(daysAgo: 30 + Double($0)) })
        let outcome = await monitor.runCheck()
        #expect(outcome.summaries == ["historical_insertion \(Timeline.heartRate) 5"])
    }

    @Test func aWriterBugIsADuplicate() async throws {
        let (timeline, monitor) = try await Self.started()
        timeline.clock.advance(by: 86_400)
        try await timeline.store.saveRepeatedly(timeline.steps(daysAgo: 0.5), copies: 4)
        let outcome = await monitor.runCheck()
        #expect(outcome.summaries == ["duplicate \(Timeline.steps) 3"])
    }

    @Test func aRestartResumesFromTheSavedAnchorsAndReportsNothingAgain() async throws {
        let (timeline, monitor) = try await Self.started()
        timeline.clock.advance(by: 86_400)
        try await timeline.store.saveRepeatedly(timeline.steps(daysAgo: 0.5), copies: 2)
        #expect(await monitor.runCheck().anomalies.count == 1)
        let reopened = try timeline.monitor()
        #expect(await reopened.lastChecked == timeline.clock.now)
        timeline.clock.advance(by: 3600)
        let resumed = await reopened.runCheck()
        #expect(resumed.kind == .completed)
        #expect(resumed.capture?.new == 0)
        #expect(resumed.anomalies.isEmpty, "\(resumed.summaries)")
        try await timeline.store.save(timeline.heartRate(daysAgo: 0))
        let next = await reopened.runCheck()
        #expect(next.capture?.new == 1)
        #expect(next.anomalies.isEmpty)
    }

    @Test func aLockedDeviceDefersTheCheckAndStoresNothing() async throws {
        let (timeline, monitor) = try await Self.started()
        let store = try timeline.support.openArchive()
        let capturesBefore = try store.fetchCaptures().count
        await timeline.store.setLocked(true)
        timeline.clock.advance(by: 86_400)
        try await timeline.writeDayWhileLocked()
        let deferred = await monitor.runCheck()
        #expect(deferred.kind == .deferred)
        #expect(deferred.capture == nil)
        #expect(await monitor.currentStatus == .healthy)
        #expect(try store.fetchCaptures().count == capturesBefore)
        #expect(try store.fetchAuditEntries().last?.event == "checkDeferred")
        await timeline.store.setLocked(false)
        let caughtUp = await monitor.runCheck()
        #expect(caughtUp.kind == .completed)
        #expect(caughtUp.capture?.new == 24)
    }

    @Test func readAccessSwitchedOffIsUnknownNeverHealthyAndLosesNothing() async throws {
        let (timeline, monitor) = try await Self.started()
        await timeline.store.setReadAccess(false)
        timeline.clock.advance(by: 86_400)
        let outcome = await monitor.runCheck()
        #expect(outcome.verified)
        #expect(outcome.status == .accessOff)
        #expect(outcome.status.message == "Health access is off: enable it in Settings > Privacy > Health")
        #expect(outcome.anomalies.isEmpty)
        let gone = try await timeline.support.openArchive().writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(gone == 0)
        await timeline.store.setReadAccess(true)
        #expect(try await timeline.nextDay(monitor).status == .healthy)
    }

    @Test func aSyncVersionReplacementIsAnUpdate() async throws {
        let (timeline, monitor) = try await Self.started()
        func version(_ number: Int) -> HealthSample {
            timeline.heartRate(
                daysAgo: 20, value: 70 + Double(number),
                metadata: ["HKMetadataKeySyncIdentifier": "s-9", "HKMetadataKeySyncVersion": String(number)])
        }
        try await timeline.store.save(version(1))
        timeline.clock.advance(by: 3600)
        #expect(await monitor.runCheck().summaries == ["historical_insertion \(Timeline.heartRate) 1"])
        try await timeline.store.save(version(2))
        timeline.clock.advance(by: 3600)
        let outcome = await monitor.runCheck()
        #expect(outcome.anomalies.isEmpty, "\(outcome.summaries)")
        let reason = try await timeline.support.openArchive().writer.read { db in
            try String.fetchOne(db, sql: "SELECT goneReason FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(reason == "replaced")
    }

    @Test func aBulkDeletionCrossesTheThreshold() async throws {
        let (timeline, monitor) = try await Self.started()
        let cutoff = timeline.clock.now.timeIntervalSince1970 - 7 * 86_400
        await timeline.store.deleteAsUser(of: Timeline.heartRate) { $0.startDate < cutoff }
        let outcome = try await timeline.nextDay(monitor)
        // Everything more than a week old: six whole days and 23 hours of the seventh.
        #expect(outcome.summaries == ["bulk_deletion \(Timeline.heartRate) \(6 * 24 + 23)"])
        #expect(outcome.anomalies.first?.severity == .warning)
    }

    @Test func exportsAndTheLivePathShareAnArchiveWithoutJudgingEachOther() async throws {
        let (timeline, monitor) = try await Self.started()
        let store = try timeline.support.openArchive()
        let export = try timeline.support.generate("export.zip", SyntheticExportOptions(elementCount: 500, seed: 2))
        var thinner = SyntheticExportOptions(elementCount: 500, seed: 2)
        thinner.omitEveryNth = 10
        let partial = try timeline.support.generate("partial.zip", thinner)
        let first = try timeline.support.check(export, in: store)
        #expect(first.audit.anomalies.isEmpty)
        let second = try timeline.support.check(partial, in: store)
        // Only the export's own records can be gone from an export.
        #expect(second.capture.gone == first.capture.records - second.capture.records)
        let next = try await timeline.nextDay(monitor)
        #expect(next.anomalies.isEmpty, "\(next.summaries)")
        #expect(next.capture?.new == 24)
        let liveGone = try await store.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE healthKitUUID IS NOT NULL AND goneCapture IS NOT NULL")
        }
        #expect(liveGone == 0)
    }

    @Test func noHealthStoreOrNoAccessAskedIsUnknown() async throws {
        let timeline = try Timeline()
        await timeline.store.setAvailable(false)
        let outcome = await (try timeline.monitor()).runCheck()
        #expect(outcome.kind == .failed)
        #expect(outcome.status == .unknown(reason: "Health data is not available on this device"))
    }
}

extension LiveTimeline {
    /// Samples written while the device is locked still land in the store (the Watch writes).
    func writeDayWhileLocked() async throws { try await writeDay() }
}

import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The schedule with a clock the test controls: missed days, month ends, daylight saving time,
/// a clock set back — each with the exports it must run.
@Suite("Export: the schedule")
struct ExportScheduleTests {
    /// A clock the test moves.
    final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current: Date

        init(_ text: String) { current = Self.date(text) }

        var now: Date { lock.withLock { current } }
        func set(_ text: String) { lock.withLock { current = Self.date(text) } }

        /// `2000-03-01T08:00:00+01:00`.
        static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    }

    static func scheduler(_ support: ArchiveTestSupport, _ store: ArchiveStore, _ clock: TestClock) -> ExportScheduler {
        ExportScheduler(archive: store, clock: { clock.now }, files: support.partialFiles) { _ in
            Array("Test Password".utf8)
        }
    }

    static func archive() throws -> (ArchiveTestSupport, ArchiveStore) {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let export = MiniExport(elements: [MiniExport.record(value: "60", start: "2000-02-01 08:00:00 +0000")])
        _ = try support.check(try export.write(to: support.folder, name: "first.xml"), in: store)
        return (support, store)
    }

    static func schedule(
        _ cadence: ExportSchedule.Cadence, at hour: Int, _ minute: Int = 0, zone: String = "Europe/Paris",
        created: String, folder: URL, range: ExportSchedule.Range = .all
    ) -> ExportSchedule {
        ExportSchedule(
            cadence: cadence, hour: hour, minute: minute, timeZone: zone, format: .jsonl, folder: folder.path,
            range: range, createdAt: TestClock.date(created))
    }

    /// Runs `due` and returns the slot exported, or nil when nothing was owed.
    static func due(_ scheduler: ExportScheduler) throws -> String? {
        switch try scheduler.runDue() {
        case .exported(_, let slot): return ISO8601DateFormatter().string(from: slot)
        case .notDue, .noSchedule: return nil
        case .failed(let failure, _): Issue.record("failed: \(failure)"); return nil
        }
    }

    @Test func daysMissedWhileOffRunOneCatchUp() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-01T10:00:00+01:00")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(
            Self.schedule(.daily, at: 8, created: "2000-03-01T10:00:00+01:00", folder: support.folder))
        // Made after today's 08:00: nothing is owed until tomorrow's.
        #expect(try Self.due(scheduler) == nil)
        clock.set("2000-03-02T08:00:00+01:00")
        #expect(try Self.due(scheduler) == "2000-03-02T07:00:00Z")
        #expect(try Self.due(scheduler) == nil)
        // Off for five days: one export, for the latest slot.
        clock.set("2000-03-07T09:30:00+01:00")
        #expect(try Self.due(scheduler) == "2000-03-07T07:00:00Z")
        #expect(try Self.due(scheduler) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: support.folder.path)
            .filter { $0.hasPrefix("healthprobe-") && $0.hasSuffix(".jsonl") }
        #expect(files.sorted() == ["healthprobe-2000-03-02-0800.jsonl", "healthprobe-2000-03-07-0800.jsonl"])
        #expect(try store.fetchExportRuns().map(\.trigger) == [.scheduled, .scheduled])
    }

    @Test func monthlyOnThe31stRunsOnEachMonthsLastDay() throws {
        let (support, store) = try Self.archive()
        let schedule = Self.schedule(.monthly, at: 8, created: "2000-01-31T07:00:00+01:00", folder: support.folder)
        #expect(schedule.anchorDay == 31)
        var slots: [String] = []
        var instant = TestClock.date("2000-01-31T07:00:00+01:00")
        for _ in 0..<5 {
            instant = schedule.nextSlot(after: instant)
            slots.append(ISO8601DateFormatter().string(from: instant))
        }
        // Leap-year February, then 30- and 31-day months; Paris moves to summer time on 26 March.
        #expect(
            slots == [
                "2000-01-31T07:00:00Z", "2000-02-29T07:00:00Z", "2000-03-31T06:00:00Z", "2000-04-30T06:00:00Z",
                "2000-05-31T06:00:00Z",
            ])
        let clock = TestClock("2000-03-01T00:00:00+01:00")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(schedule)
        #expect(try Self.due(scheduler) == "2000-02-29T07:00:00Z")
        clock.set("2000-03-30T23:00:00+02:00")
        #expect(try Self.due(scheduler) == nil)
    }

    @Test func daylightSavingChangesKeepTheLocalTime() throws {
        let (support, store) = try Self.archive()
        // 02:30 does not exist on 26 March 2000 in Paris (02:00 → 03:00) and happens twice on
        // 29 October (03:00 → 02:00).
        let schedule = Self.schedule(.daily, at: 2, 30, created: "2000-03-24T12:00:00+01:00", folder: support.folder)
        let formatter = ISO8601DateFormatter()
        var instant = TestClock.date("2000-03-24T12:00:00+01:00")
        var spring: [String] = []
        for _ in 0..<3 {
            instant = schedule.nextSlot(after: instant)
            spring.append(formatter.string(from: instant))
        }
        // Before, at the jump (03:00 local, the moment the clocks skip), after.
        #expect(spring == ["2000-03-25T01:30:00Z", "2000-03-26T01:00:00Z", "2000-03-27T00:30:00Z"])
        var autumn: [String] = []
        instant = TestClock.date("2000-10-28T12:00:00+02:00")
        for _ in 0..<2 {
            instant = schedule.nextSlot(after: instant)
            autumn.append(formatter.string(from: instant))
        }
        // The first 02:30 (summer time), then 02:30 winter time.
        #expect(autumn == ["2000-10-29T00:30:00Z", "2000-10-30T01:30:00Z"])
        let clock = TestClock("2000-10-29T02:45:00+02:00")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(
            Self.schedule(.daily, at: 2, 30, created: "2000-10-28T12:00:00+02:00", folder: support.folder))
        #expect(try Self.due(scheduler) == "2000-10-29T00:30:00Z")
        // The hour repeats: 02:45 again, in winter time, owes nothing more.
        clock.set("2000-10-29T02:45:00+01:00")
        #expect(try Self.due(scheduler) == nil)
    }

    @Test func aClockSetBackOwesNothingUntilItPassesTheLastExportAgain() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-10T09:00:00+01:00")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(
            Self.schedule(.daily, at: 8, created: "2000-03-01T00:00:00+01:00", folder: support.folder))
        #expect(try Self.due(scheduler) == "2000-03-10T07:00:00Z")
        clock.set("2000-03-07T09:00:00+01:00")
        #expect(try Self.due(scheduler) == nil)
        clock.set("2000-03-10T23:00:00+01:00")
        #expect(try Self.due(scheduler) == nil)
        clock.set("2000-03-11T08:00:00+01:00")
        #expect(try Self.due(scheduler) == "2000-03-11T07:00:00Z")
    }

    @Test func weeklyRunsOnTheWeekdayItWasMade() throws {
        // 2000-03-01 was a Wednesday.
        let schedule = Self.schedule(
            .weekly, at: 8, created: "2000-03-01T07:00:00+01:00", folder: URL(fileURLWithPath: "/"))
        let first = schedule.nextSlot(after: TestClock.date("2000-03-01T07:00:00+01:00"))
        let second = schedule.nextSlot(after: first)
        #expect(ISO8601DateFormatter().string(from: first) == "2000-03-01T07:00:00Z")
        #expect(ISO8601DateFormatter().string(from: second) == "2000-03-08T07:00:00Z")
    }

    @Test func sinceLastExportsWhatArrivedSinceTheLastRun() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-02T09:00:00+01:00")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(
            Self.schedule(
                .daily, at: 8, created: "2000-03-01T00:00:00+01:00", folder: support.folder, range: .sinceLast))
        guard case .exported(let first, _) = try scheduler.runDue() else { throw ExportFailure.cancelled }
        #expect(first.records == 1)
        // A later capture brings one more record, written weeks late.
        let second = MiniExport(
            exportDate: "2000-03-02 12:00:00 +0000",
            elements: [
                MiniExport.record(value: "60", start: "2000-02-01 08:00:00 +0000"),
                MiniExport.record(value: "58", start: "2000-01-15 08:00:00 +0000"),
            ])
        _ = try support.check(try second.write(to: support.folder, name: "second.xml"), in: store)
        clock.set("2000-03-03T08:05:00+01:00")
        guard case .exported(let next, _) = try scheduler.runDue() else { throw ExportFailure.cancelled }
        #expect(next.records == 1)
        #expect(try scheduler.state().lastExportedCapture == 2)
    }

    /// A failed try is tried again soon, each wait twice the last, never past the next slot: a
    /// weekly export whose run failed (or expired in the background) does not wait a week.
    @Test func aFailedTryIsRetriedSoonWithALengtheningWait() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-02T09:00:00+01:00")
        let missing = support.folder.appendingPathComponent("not-yet")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(Self.schedule(.weekly, at: 8, created: "2000-03-01T09:00:00+01:00", folder: missing))
        // Nothing owed yet: the next slot, a week after the day it was made.
        #expect(try scheduler.nextTry() == TestClock.date("2000-03-08T08:00:00+01:00"))
        clock.set("2000-03-08T09:00:00+01:00")
        #expect(try scheduler.nextTry() == clock.now, "owed and never tried: now")
        #expect(!(try scheduler.runDue().succeeded))
        #expect(try scheduler.nextTry() == TestClock.date("2000-03-08T09:15:00+01:00"))
        clock.set("2000-03-08T09:15:00+01:00")
        #expect(!(try scheduler.runDue().succeeded))
        #expect(try scheduler.nextTry() == TestClock.date("2000-03-08T09:45:00+01:00"))
        // The slot stays owed through the failures, then completes.
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
        clock.set("2000-03-08T09:45:00+01:00")
        #expect(try Self.due(scheduler) == "2000-03-08T07:00:00Z")
        #expect(try scheduler.nextTry() == TestClock.date("2000-03-15T08:00:00+01:00"))
        #expect(try scheduler.state().failedTries == nil)
    }

    /// The phone's folder is stored relative to its container, which iOS moves on an update.
    @Test func aRelativeFolderIsInTheContainerOfTheDay() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-02T09:00:00+01:00")
        let container = support.folder.appendingPathComponent("container-after-update")
        let exports = container.appendingPathComponent("Documents/Exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let scheduler = ExportScheduler(
            archive: store, clock: { clock.now }, files: support.partialFiles, container: container
        ) { _ in [] }
        var schedule = Self.schedule(.daily, at: 8, created: "2000-03-01T00:00:00+01:00", folder: exports)
        schedule.folder = "Documents/Exports"
        try scheduler.setSchedule(schedule)
        guard case .exported(let result, _) = try scheduler.runDue() else {
            Issue.record("the owed export must run into the container's folder")
            return
        }
        #expect(result.path.hasPrefix(exports.path + "/healthprobe-"))
    }

    @Test func aFailedRunSaysSoAndStaysOwed() throws {
        let (support, store) = try Self.archive()
        let clock = TestClock("2000-03-02T09:00:00+01:00")
        let missing = support.folder.appendingPathComponent("gone-folder")
        let scheduler = Self.scheduler(support, store, clock)
        try scheduler.setSchedule(Self.schedule(.daily, at: 8, created: "2000-03-01T00:00:00+01:00", folder: missing))
        let failed = try scheduler.runDue()
        guard case .failed = failed else {
            Issue.record("a folder that does not exist must fail the run")
            return
        }
        #expect(!failed.succeeded, "the background task reports the failure")
        #expect(try store.fetchExportRuns().map(\.outcome) == [.failed])
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
        #expect(try Self.due(scheduler) == "2000-03-02T07:00:00Z")
        #expect(try scheduler.runDue().succeeded, "nothing owed any more")
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// `healthprobe demo`: a simulated iPhone with two months of synthetic history, checked once a
/// day the way the app would, while the troubles of real Health stores happen to it — a writer
/// bug, Watch and iPhone overlapping, a deletion by the user, a backfill, a bad iCloud sync, a
/// deletion whose records HealthKit purged, a locked phone, a sync-version update, read access
/// switched off. Each check says what happened and what HealthProbe found.
public struct DemoScenario: Sendable {
    /// Daily checks to run.
    public var days: Int
    /// Days of history the store holds before the first check.
    public var historyDays = 60
    public var seed: UInt64 = 1

    public init(days: Int = 30) {
        self.days = days
    }

    /// 2000-03-01, the first day checked; history starts on 2000-01-01.
    static let firstDayStart = 951_868_800.0

    /// One check and what led up to it.
    public struct Check: Sendable {
        public var day: Int
        /// The day checked (UTC), `2000-03-01`.
        public var date: String
        /// What happened to the store since the last check, in plain words.
        public var happened: [String]
        /// Why this check ran: "daily" or "app opened" (a retry).
        public var trigger: String
        public var outcome: CheckOutcome
        /// The losses this check found put back by a restore, as they are after it.
        public var restored: [Anomaly] = []
    }

    /// Runs the scenario against `store`, calling `onCheck` after each check.
    public func run(store: ArchiveStore, onCheck: @Sendable (Check) -> Void = { _ in }) async throws -> [Check] {
        let health = SimulatedHealthStore()
        let clock = SimulatedClock(Date(timeIntervalSince1970: Self.dayStart(1 - historyDays)))
        var writers = DemoWriters(seed: seed)
        var world = DemoWorld(health: health, clock: clock, context: ContextMonitor(store: store))
        for day in (1 - historyDays)...0 { try await world.live(day: day, writers: &writers) }
        let monitor = try HealthMonitor(source: health, store: store, clock: clock.reading)
        var checks: [Check] = []
        func report(_ day: Int, _ happened: [String], _ trigger: String, _ outcome: CheckOutcome) {
            var check = Check(
                day: day, date: UTCText.day(Int64(Self.dayStart(day) / 86_400)), happened: happened, trigger: trigger,
                outcome: outcome)
            if let capture = outcome.capture, capture.restored > 0 {
                check.restored = ((try? store.fetchAnomalies(.init(includeResolved: true))) ?? [])
                    .filter { $0.restoredCapture == capture.id }
            }
            checks.append(check)
            onCheck(check)
        }
        for day in 1...days {
            try await world.live(day: day, writers: &writers)
            let happened = try await world.incident(on: day, writers: &writers)
            clock.set(Date(timeIntervalSince1970: Self.dayStart(day + 1) + 1800))
            let outcome = await monitor.runCheck()
            report(day, happened, "daily", outcome)
            if outcome.kind == .deferred {
                // The app is opened later that day: it checks again.
                await health.setLocked(false)
                clock.advance(by: 8 * 3600)
                report(
                    day, ["The phone was unlocked and the app opened: HealthProbe checks again."], "app opened",
                    await monitor.runCheck())
            }
        }
        // The person puts back what vanished, the next check knows it, and a second restore
        // has nothing left to write.
        for attempt in 1...2 {
            guard let happened = try await Self.restore(store: store, into: health, attempt: attempt) else { break }
            clock.advance(by: 3_600)
            report(days, happened, "restore", await monitor.runCheck())
        }
        return checks
    }

    /// What the first silent deletion (the iCloud sync's) lost, written back into `health` as the
    /// app does; nil when nothing was ever lost. (The later loss of steps is the person's own
    /// deletion, its deletion records purged: not theirs to put back.)
    static func restore(store: ArchiveStore, into health: SimulatedHealthStore, attempt: Int) async throws
        -> [String]?
    {
        let losses = try store.fetchAnomalies(.init(includeResolved: true, type: .silentDeletion))
            .filter { !$0.withdrawn }.map(\.id).prefix(1)
        guard !losses.isEmpty else { return nil }
        let file = RestoreFile(try store.lostRecords(anomalies: Array(losses)))
        guard !file.records.isEmpty else {
            return [
                "The restore is run again: nothing to put back ("
                    + (file.leftOut.words.first ?? "no record left") + "), nothing written twice."
            ]
        }
        let outcome = try await RestoreApplier(file).apply(to: health)
        let types = Set(file.records.map(\.type)).count
        return [
            "\(attempt == 1 ? "The person restores" : "Restored again:") what the iCloud sync dropped "
                + "(anomaly \(losses[losses.startIndex])): HealthProbe writes "
                + "\(RestoreWords.records(outcome.written)) of \(types) type\(types == 1 ? "" : "s") back into Health, "
                + "each once, as HealthProbe's."
        ]
    }

    static func dayStart(_ day: Int) -> Double {
        firstDayStart + Double(day - 1) * 86_400
    }
}

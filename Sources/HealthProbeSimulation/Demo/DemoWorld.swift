import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The simulated phone of the demo: a day of life, and the incident of the day.
struct DemoWorld {
    let health: SimulatedHealthStore
    let clock: SimulatedClock
    let context: ContextMonitor
    private var runs: [(start: Double, identifier: String)] = []

    init(health: SimulatedHealthStore, clock: SimulatedClock, context: ContextMonitor) {
        self.health = health
        self.clock = clock
        self.context = context
    }

    /// The day's samples, written at its end; a run every fourth day.
    mutating func live(day: Int, writers: inout DemoWriters) async throws {
        let start = DemoScenario.dayStart(day)
        let writtenAt = start + 86_000
        clock.set(Date(timeIntervalSince1970: writtenAt))
        for sample in writers.day(startingAt: start, writtenAt: writtenAt) { try await health.save(sample) }
        if day % 4 == 0 {
            let identifier = "run-\(day + 1000)"
            try await health.save(
                writers.workout(startingAt: start + 18 * 3600, identifier: identifier, version: 1, writtenAt: writtenAt)
            )
            runs.append((start + 18 * 3600, identifier))
        }
    }

    /// Applies the incident scheduled for `day`; returns what happened, in plain words.
    mutating func incident(on day: Int, writers: inout DemoWriters) async throws -> [String] {
        let today = DemoScenario.dayStart(day)
        func during(_ first: Int, _ last: Int) -> (HealthSample) -> Bool {
            { $0.startDate >= DemoScenario.dayStart(first) && $0.startDate < DemoScenario.dayStart(last + 1) }
        }
        switch day {
        case 3:
            let victims = await health.samples(of: DemoWriters.steps, where: during(day, day)).prefix(6)
            for sample in victims { try await health.saveRepeatedly(sample, copies: 2) }
            return ["A fitness app's bug saved \(victims.count) of today's step samples twice more each."]
        case 5:
            let shared = await health.samples(of: DemoWriters.steps, where: during(day, day)).prefix(10)
            for sample in shared {
                try await health.saveFromSecondSource(
                    sample, source: DemoWriters.phoneSource, device: DemoWriters.phone)
            }
            return [
                "The iPhone also wrote \(shared.count) step samples the Watch had written: same minutes, same counts."
            ]
        case 8:
            let count = await health.deleteAsUser(of: DemoWriters.heartRate, where: during(day - 2, day - 2))
            return [
                "You deleted a day of heart rate in the Health app (\(count) samples); HealthKit keeps deletion records."
            ]
        case 11:
            let days = stride(from: 57, through: 35, by: -2).map { today - Double($0) * 86_400 }
            let readings = writers.scaleReadings(onDaysStarting: days, writtenAt: today + 86_000)
            try await health.backfill(readings)
            return [
                "A scale app synced after weeks away, writing \(readings.count) body-mass readings dated 5 to 8 weeks ago."
            ]
        case 14:
            let lost = await health.loseSilently(of: DemoWriters.heartRate, where: during(day - 25, day - 16))
            try context.record(.iCloudSync, detail: "iCloud sync finished after signing in again", at: clock.now)
            return [
                "An iCloud sync after signing in again dropped \(lost) heart-rate samples from ten days in February, leaving no deletion records."
            ]
        case 17:
            let count = await health.deleteAsUser(of: DemoWriters.steps, where: during(day - 6, day - 5))
            await health.purgeTombstones()
            return [
                "\(count) step samples from two days were deleted, and HealthKit purged the deletion records before HealthProbe's next check."
            ]
        case 20:
            await health.setLocked(true)
            return ["The background check started while the phone was locked."]
        case 23:
            let recent = runs.suffix(3)
            for run in recent {
                try await health.save(
                    writers.workout(
                        startingAt: run.start, identifier: run.identifier, version: 2, writtenAt: today + 86_000))
            }
            return ["The workout app corrected \(recent.count) runs: higher sync versions replace the old ones."]
        case 26:
            await health.setReadAccess(false)
            return ["HealthProbe's read access was switched off in Settings."]
        case 27:
            await health.setReadAccess(true)
            return ["Read access was switched back on."]
        default:
            return []
        }
    }
}

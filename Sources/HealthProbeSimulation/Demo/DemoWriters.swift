import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The synthetic apps and devices of the demo: a Watch writing heart rate, steps and energy all
/// day, an iPhone writing steps, a sleep tracker at night, a scale app, a workout app. Values come
/// from a seeded generator, so each run tells the same story. Synthetic data only.
struct DemoWriters {
    static let watchSource = "Test User\u{2019}s Apple Watch"
    static let phoneSource = "iPhone-TESTDEVICE"
    static let scaleSource = "Test Scale"
    static let workoutSource = "Test Workouts"
    static let watch = HealthSample.Device(
        name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,2", software: "10.1")
    static let phone = HealthSample.Device(
        name: "iPhone-TESTDEVICE", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone15,2", software: "17.1"
    )

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed, stream: 0)
    }

    /// One day's samples, the day starting at `dayStart` (seconds since 1970, UTC), written at
    /// `writtenAt`.
    mutating func day(startingAt dayStart: Double, writtenAt: Double) -> [HealthSample] {
        var samples: [HealthSample] = []
        for hour in 0..<24 {
            let time = dayStart + Double(hour) * 3600 + Double(random.next(below: 3_000)) + 0.125
            samples.append(
                quantity(
                    Self.heartRate, "count/min", 55 + Double(random.next(below: 50)), at: time, length: 0, writtenAt))
            samples.append(
                quantity(
                    Self.activeEnergy, "kcal", Double(random.next(below: 40_000)) / 1000, at: time + 60, length: 600,
                    writtenAt))
            if (7..<22).contains(hour) {
                samples.append(
                    quantity(
                        Self.steps, "count", Double(200 + random.next(below: 900)), at: time + 120, length: 900,
                        writtenAt))
            }
        }
        for segment in 0..<3 {
            let start = dayStart + 3600 * Double(1 + 2 * segment) + 0.5
            samples.append(
                HealthSample(
                    kind: .category, type: Self.sleep, sourceName: Self.watchSource, sourceVersion: "10.1",
                    device: Self.watch,
                    value: Double(3 + random.next(below: 3)), startDate: start, endDate: start + 5400,
                    creationDate: writtenAt))
        }
        return samples
    }

    func quantity(
        _ type: String, _ unit: String, _ value: Double, at start: Double, length: Double, _ writtenAt: Double
    )
        -> HealthSample
    {
        HealthSample(
            kind: .quantity, type: type, sourceName: Self.watchSource, sourceVersion: "10.1", device: Self.watch,
            unit: unit,
            value: value, startDate: start, endDate: start + length, creationDate: writtenAt)
    }

    /// A scale app's readings on the given days, written now.
    mutating func scaleReadings(onDaysStarting days: [Double], writtenAt: Double) -> [HealthSample] {
        days.map { dayStart in
            HealthSample(
                kind: .quantity, type: Self.bodyMass, sourceName: Self.scaleSource, sourceVersion: "4", unit: "kg",
                value: 70 + Double(random.next(below: 3_000)) / 1000, startDate: dayStart + 7 * 3600 + 0.75,
                endDate: dayStart + 7 * 3600 + 0.75, creationDate: writtenAt)
        }
    }

    /// A workout app's run, with a sync identifier so it can later be replaced.
    mutating func workout(startingAt start: Double, identifier: String, version: Int, writtenAt: Double) -> HealthSample
    {
        HealthSample(
            kind: .workout, type: HealthRecord.workoutType, sourceName: Self.workoutSource, sourceVersion: "2",
            startDate: start, endDate: start + 1800 + Double(version * 60), creationDate: writtenAt,
            metadata: [HealthSample.syncIdentifierKey: identifier, HealthSample.syncVersionKey: String(version)],
            workoutActivityType: "HKWorkoutActivityTypeRunning")
    }
}

import Foundation
import HealthProbeSimulation

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Samples and a monitor over a simulated store, for the live path's timelines. Synthetic data only.
struct LiveTimeline {
    static let start = Date(timeIntervalSince1970: 946_684_800 + 60 * 86_400)  // 2000-03-01
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let watch = HealthSample.Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch")

    let support: ArchiveTestSupport
    let store: SimulatedHealthStore
    let clock = SimulatedClock(LiveTimeline.start)
    var configuration = HealthMonitor.Configuration()

    init() throws {
        support = try ArchiveTestSupport()
        store = SimulatedHealthStore()
    }

    func monitor() throws -> HealthMonitor {
        try HealthMonitor(
            source: store, store: try support.openArchive(),
            types: HealthKitCatalog.types.filter { [Self.heartRate, Self.steps].contains($0.identifier) },
            configuration: configuration, clock: clock.reading)
    }

    /// A heart-rate sample `daysAgo` days before the clock, at sub-second precision.
    func heartRate(daysAgo: Double, value: Double = 60, metadata: [String: String] = [:]) -> HealthSample {
        let start = clock.now.timeIntervalSince1970 - daysAgo * 86_400 + 0.25
        return HealthSample(
            kind: .quantity, type: Self.heartRate, sourceName: "Test User\u{2019}s Apple Watch", sourceVersion: "10.1",
            device: Self.watch, unit: "count/min", value: value, startDate: start, endDate: start,
            creationDate: clock.now.timeIntervalSince1970, metadata: metadata)
    }

    func steps(daysAgo: Double, value: Double = 120) -> HealthSample {
        let start = clock.now.timeIntervalSince1970 - daysAgo * 86_400 + 0.5
        return HealthSample(
            kind: .quantity, type: Self.steps, sourceName: "Test User\u{2019}s Apple Watch", device: Self.watch,
            unit: "count", value: value, startDate: start, endDate: start + 60)
    }

    /// Writes `count` heart rates over the last day, an hour apart.
    func writeDay(count: Int = 24, valueBase: Double = 60) async throws {
        for index in 0..<count {
            try await store.save(heartRate(daysAgo: Double(index) / 24, value: valueBase + Double(index % 7)))
        }
    }

    /// Moves a day on, writes a day of samples, checks.
    func nextDay(_ monitor: HealthMonitor) async throws -> CheckOutcome {
        clock.advance(by: 86_400)
        try await writeDay()
        return await monitor.runCheck()
    }
}

extension CheckOutcome {
    var summaries: [String] { anomalies.summaries }
}

import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// `healthprobe demo`'s month: each incident scheduled in the simulated store is found on the
/// day it happens, as what the monitor reports, and quiet days stay healthy.
@Suite("Demo scenario")
struct DemoScenarioTests {
    @Test func eachIncidentIsFoundOnItsDay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
        let checks = try await DemoScenario(days: 27).run(store: archive)
        func found(on day: Int, trigger: String = "daily") -> CheckOutcome? {
            checks.first { $0.day == day && $0.trigger == trigger }?.outcome
        }
        func types(on day: Int) -> Set<AnomalyType> { Set(found(on: day)?.anomalies.map(\.type) ?? []) }
        #expect(types(on: 3).contains(.duplicate))
        #expect(types(on: 5).contains(.sourceOverlap))
        #expect(found(on: 8)?.explicitDeletions ?? 0 > 0)
        #expect(types(on: 11).contains(.historicalInsertion))
        #expect(types(on: 14).contains(.silentDeletion))
        #expect(found(on: 14)?.verified == true)
        #expect(found(on: 20)?.kind == .deferred)
        #expect(found(on: 20, trigger: "app opened")?.kind == .completed)
        #expect(found(on: 23)?.updates ?? 0 > 0)
        #expect(found(on: 26)?.status == .accessOff)
        for quiet in [2, 4, 6, 9] { #expect(found(on: quiet)?.anomalies.isEmpty == true, "day \(quiet)") }
        // The month's ordinary data raises nothing beyond its incidents: no self-overlap, no
        // conflicting values, no route or document changes.
        let everything = Set(checks.flatMap { $0.outcome.anomalies.map(\.type) })
        #expect(everything == [.duplicate, .sourceOverlap, .historicalInsertion, .silentDeletion], "\(everything)")
        #expect(checks.map(\.date).first == "2000-03-01")
    }
}

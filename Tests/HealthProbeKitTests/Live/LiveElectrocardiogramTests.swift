import Foundation
import GRDB
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// ECG recordings read live are archived with their voltages, as an export's are: a recording
/// that vanishes from HealthKit is a critical loss the archive can still give back.
@Suite("Health monitor: ECG recordings")
struct LiveElectrocardiogramTests {
    typealias Timeline = LiveTimeline

    @Test func aRecordingIsKeptWithItsVoltagesAndItsLossFound() async throws {
        var timeline = try Timeline()
        timeline.configuration.verificationEvery = 2
        let now = timeline.clock.now.timeIntervalSince1970
        for day in 0..<3 {
            try await timeline.store.save(.simulatedElectrocardiogram(at: now - Double(day + 1) * 86_400, seed: day))
        }
        for day in 0..<14 { try await timeline.store.save(timeline.heartRate(daysAgo: Double(day))) }
        let monitor = try HealthMonitor(
            source: timeline.store, store: try timeline.support.openArchive(),
            types: HealthKitCatalog.types.filter {
                [Timeline.heartRate, HealthKitCatalog.electrocardiogramType].contains($0.identifier)
            }, configuration: timeline.configuration, clock: timeline.clock.reading)
        let first = await monitor.runCheck()
        #expect(first.kind == .completed)
        #expect(first.anomalies.isEmpty, "\(first.summaries)")

        let store = try timeline.support.openArchive()
        let kept = try store.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.kind, r.value, f.items, f.digest FROM record r
                    JOIN referencedFile f ON f.recordId = r.id WHERE r.type = ?
                    """, arguments: [HealthKitCatalog.electrocardiogramType])
        }
        #expect(kept.count == 3)
        #expect(kept.allSatisfy { $0["kind"] == "electrocardiogram" && $0["items"] == 15_360 })
        #expect(kept.allSatisfy { $0["value"] == "Sinus Rhythm" })
        // The voltages come back exactly, in µV to the thousandth.
        let digests = kept.compactMap { $0["digest"] as String? }
        let decoded = try await store.writer.read { db in
            try digests.compactMap { try ReferencedFiles.content(digest: $0, db).flatMap(VoltageCoding.decode)?.values }
        }
        let expected = (0..<3).map { seed in
            (HealthSample.simulatedElectrocardiogram(at: 0, seed: seed).electrocardiogram?.microvolts ?? []).map {
                Int64(($0 * 1000).rounded())
            }
        }
        #expect(Set(decoded) == Set(expected))

        // One recording vanishes without a deletion: the verification finds it, critical.
        let lost = await timeline.store.loseSilently(of: HealthKitCatalog.electrocardiogramType) {
            $0.startDate < now - 2.5 * 86_400
        }
        #expect(lost == 1)
        _ = try await timeline.nextDay(monitor)
        let verification = try await timeline.nextDay(monitor)
        #expect(verification.verified)
        let loss = try #require(
            verification.anomalies.first { $0.sampleType == HealthKitCatalog.electrocardiogramType })
        #expect(loss.type == .silentDeletion)
        #expect(loss.severity == .critical)
        #expect(try store.fetchElectrocardiograms(anomalyID: loss.id).first?.voltages.count == 15_360)
    }
}

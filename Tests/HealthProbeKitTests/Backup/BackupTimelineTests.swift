import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A first capture of a Health database follows its samples' timeline as they are read, as an
/// export's does: what it finds must be what reading the capture back in time order finds, with
/// samples stored out of time order (synced later from another device) among them.
@Suite("Backup checks: a first capture's timeline")
struct BackupTimelineTests {
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    /// 2000-01-01 23:00 UTC.
    static let firstNight = 946_767_600.0

    /// An app's growing sessions of one night: 23:00–00:05, 23:00–01:05, … 23:00–03:05.
    static func nestedNight(_ night: Int) -> [HealthDatabaseFixture.Sample] {
        (0..<4).map { hour in
            let start = firstNight + Double(night) * 86_400
            var sample = HealthDatabaseFixture.Sample(
                type: sleep, start: start, end: start + 3_900 + Double(hour) * 3_600, value: 1)
            sample.source = 1
            return sample
        }
    }

    static func weighing(day: Int, _ kilograms: Double, writtenAfter hours: Double) -> HealthDatabaseFixture.Sample {
        let start = firstNight + 32_400 + Double(day) * 86_400
        var sample = HealthDatabaseFixture.Sample(
            type: bodyMass, start: start, created: start + hours * 3_600, value: kilograms)
        sample.source = 2
        return sample
    }

    @Test func aFirstDatabaseFindsWhatItsTimelineReadBackFinds() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let health = folder.appendingPathComponent("health")
        try FileManager.default.createDirectory(at: health, withIntermediateDirectories: true)
        // The second night stored after the third; a weighing rewritten after a later one.
        let samples =
            Self.nestedNight(0) + Self.nestedNight(2) + Self.nestedNight(1)
            + [
                Self.weighing(day: 0, 70, writtenAfter: 0), Self.weighing(day: 2, 72, writtenAfter: 0),
                Self.weighing(day: 3, 73, writtenAfter: 0), Self.weighing(day: 2, 74, writtenAfter: 2),
            ]
        try HealthDatabaseFixture.write(to: health, sources: ["Sleep App TEST", "iPhone-TESTDEVICE"], samples: samples)
        let archivePath = folder.appendingPathComponent("archive.sqlite").path
        let store = try ArchiveStore.open(at: archivePath)
        let result = try ArchiveCheck.open(health.path, archivePath: archivePath).run(into: store)

        let found = result.anomalies
        let overlap = try #require(found.first { $0.type == .selfOverlap })
        #expect(overlap.sampleType == Self.sleep)
        #expect(overlap.recordCount == 12)
        #expect(overlap.evidence["cases"] == "3")
        let conflict = try #require(found.first { $0.type == .conflictingValues })
        #expect(conflict.sampleType == Self.bodyMass)
        #expect(conflict.recordCount == 2)

        let readBack = try store.writer.read { db in
            let pair = try CapturePair.load(db, captureID: result.capture.id, recordIDFloor: 0)
            var (selfOverlaps, conflicts, names) = try CaptureAudit.scanTimeline(
                db, pair: pair, thresholds: Thresholds())
            return selfOverlaps.findings(pair: pair, names: names) + conflicts.findings(pair: pair, names: names)
        }
        let stored = found.filter { [.selfOverlap, .conflictingValues].contains($0.type) }
        #expect(stored.map(\.summary) == readBack.map(\.summary))
        #expect(stored.map(\.evidence) == readBack.map(\.evidence))
    }
}

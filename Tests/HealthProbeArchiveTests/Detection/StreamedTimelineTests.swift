import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

/// A first capture's self-overlaps and conflicting values are found while its records stream in
/// (``StreamedTimeline``), not by reading them back in time order: the findings must be exactly
/// those the archive's timeline gives, records listed out of time order included.
@Suite("A first capture's timeline, followed as it streams")
struct StreamedTimelineTests {
    typealias Export = MiniExport
    static let sleep = TimelineScan.sleepType
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    static let app = "Sleep App TEST"

    /// An app's growing sessions for the night after `day`: 23:00–00:05, 23:00–01:05, … 23:00–03:05.
    static func nestedNight(after day: Int) -> [String] {
        (0..<4).map { hour in
            Export.record(
                sleep, source: app, value: "HKCategoryValueSleepAnalysisAsleepUnspecified", unit: nil,
                start: "2000-01-0\(day) 23:00:00 +0000", end: "2000-01-0\(day + 1) 0\(hour):05:00 +0000")
        }
    }

    static func weighing(_ day: Int, _ value: String, writtenAt hour: Int, synced: Bool = false) -> String {
        Export.record(
            bodyMass, source: Export.phone, value: value, unit: "kg", start: "2000-01-0\(day) 08:00:00 +0000",
            created: String(format: "2000-01-0%d %02d:00:00 +0000", day, hour),
            metadata: synced ? [("HKMetadataKeySyncIdentifier", "TEST-\(day)")] : [])
    }

    static func stepsRecord(_ start: String, _ end: String) -> String {
        Export.record(
            steps, source: Export.phone, value: "100", unit: "count", start: "2000-01-02 \(start):00 +0000",
            end: "2000-01-02 \(end):00 +0000")
    }

    static func heartRate(_ minute: Int, _ value: String) -> String {
        Export.record(value: value, start: String(format: "2000-01-02 12:%02d:00 +0000", minute))
    }

    /// Each source's records nearly in time order, as exports list them, with records read late:
    /// the second night after the third, a weighing rewritten after later ones, a step sample
    /// after the two it overlaps, a heart rate after later ones.
    static let elements: [String] =
        nestedNight(after: 1) + nestedNight(after: 3) + nestedNight(after: 2)
        + [
            weighing(2, "70", writtenAt: 8), weighing(2, "71", writtenAt: 9),
            weighing(4, "72", writtenAt: 8), weighing(5, "73", writtenAt: 8), weighing(4, "74", writtenAt: 10),
            weighing(3, "75", writtenAt: 8), weighing(6, "76", writtenAt: 8),
            weighing(6, "77", writtenAt: 10, synced: true),
        ]
        + [stepsRecord("10:00", "10:10"), stepsRecord("10:05", "10:15"), stepsRecord("09:58", "10:03")]
        + (0..<10).map { heartRate($0, "6\($0)") } + [heartRate(3, "90")]
        + [
            Export.record(
                "HKQuantityTypeIdentifierDietaryWater", source: Export.phone, value: "250", unit: "mL",
                start: "2000-01-02 13:00:00 +0000", created: "2000-01-02 13:00:00 +0000"),
            Export.record(
                "HKQuantityTypeIdentifierDietaryWater", source: Export.phone, value: "300", unit: "mL",
                start: "2000-01-02 13:00:00 +0000", created: "2000-01-02 15:00:00 +0000"),
        ]

    static var thresholds: Thresholds {
        var thresholds = Thresholds()
        thresholds.selfOverlapSummedTypes = [steps]
        return thresholds
    }

    let store: ArchiveStore
    let written: WrittenCapture
    let feed: ReadExportFeed

    init() throws {
        let folder = try FixtureFiles.temporaryFolder()
        store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
        let export = Export(exportDate: "2000-01-08 12:00:00 +0000", elements: Self.elements)
        (written, feed) = try store.writeExport(
            try export.write(to: folder, name: "export.xml"), thresholds: Self.thresholds)
    }

    /// What the detectors find reading the capture's timeline back from the archive.
    func readBack() throws -> [Finding] {
        try store.writer.read { db in
            let pair = try CapturePair.load(db, captureID: written.capture.id, recordIDFloor: 0)
            var (selfOverlaps, conflicts, names) = try CaptureAudit.scanTimeline(
                db, pair: pair, thresholds: Self.thresholds)
            return selfOverlaps.findings(pair: pair, names: names) + conflicts.findings(pair: pair, names: names)
        }
    }

    func linkedIDs(_ anomaly: Anomaly) throws -> [Int64] {
        try store.writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT recordId FROM anomalyRecord WHERE anomalyId = ? ORDER BY recordId",
                arguments: [anomaly.id])
        }
    }

    @Test func theCaptureFindsWhatItsTimelineReadBackFinds() throws {
        let stored = written.audit.anomalies.filter { [.selfOverlap, .conflictingValues].contains($0.type) }
        let expected = try readBack()
        #expect(stored.count == 3)
        #expect(stored.count == expected.count)
        for (anomaly, finding) in zip(stored, expected) {
            #expect(anomaly.type == finding.type)
            #expect(anomaly.sampleType == finding.sampleType)
            #expect(anomaly.summary == finding.summary)
            #expect(anomaly.recordCount == finding.recordCount)
            #expect(anomaly.evidence == finding.evidence)
            guard case .ids(_, let ids) = finding.records.first else {
                Issue.record("a timeline finding names its records")
                continue
            }
            #expect(try linkedIDs(anomaly) == ids.sorted())
        }
    }

    @Test func recordsReadLateAreJudgedWithTheirNeighbours() throws {
        let found = written.audit.anomalies
        let sleep = try #require(found.first { $0.type == .selfOverlap && $0.sampleType == Self.sleep })
        #expect(sleep.recordCount == 12)
        #expect(sleep.evidence["cases"] == "3")
        let steps = try #require(found.first { $0.type == .selfOverlap && $0.sampleType == Self.steps })
        #expect(steps.recordCount == 3)
        // 09:58–10:03, 10:00–10:10 and 10:05–10:15 claim 25 minutes of 17.
        #expect(steps.evidence["claimedSeconds"] == "1500")
        #expect(steps.evidence["coveredSeconds"] == "1020")
        let conflict = try #require(found.first { $0.type == .conflictingValues })
        #expect(found.filter { $0.type == .conflictingValues }.count == 1)
        #expect(conflict.sampleType == Self.bodyMass)
        #expect(conflict.evidence["cases"] == "2")
        #expect(conflict.recordCount == 4)
    }

    @Test func withoutTheLateRecordsTheStreamAloneWouldMissCases() throws {
        var timeline = try #require(feed.aggregates.timeline)
        var unsettled = timeline.selfOverlaps
        let pair = try store.writer.read { db in
            try CapturePair.load(db, captureID: written.capture.id, recordIDFloor: 0)
        }
        let partial = unsettled.findings(pair: pair, names: timeline.names)
        #expect(partial.first { $0.sampleType == Self.sleep }?.recordCount == 8)
        try store.writer.read { db in try timeline.settle(db, pair: pair) }
        var settledOverlaps = timeline.selfOverlaps
        let settled = settledOverlaps.findings(pair: pair, names: timeline.names)
        #expect(settled.first { $0.sampleType == Self.sleep }?.recordCount == 12)
    }
}

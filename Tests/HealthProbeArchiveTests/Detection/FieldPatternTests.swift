import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// Two loss patterns from the field: an app's sleep sessions that nest (totals claim 28 hours a
/// night) and an edit that adds a second value instead of replacing the first — and the normal
/// data they must not fire on.
@Suite("Detectors: self-overlap and conflicting values")
struct FieldPatternTests {
    typealias Export = MiniExport
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    static let app = "Sleep App TEST"

    static func sleepRecord(_ value: String, source: String, start: String, end: String) -> String {
        Export.record(
            sleep, source: source, value: "HKCategoryValueSleepAnalysis\(value)", unit: nil, start: start, end: end)
    }

    /// An app's growing sessions for the night of 1–2 January: 23:00–00:05, 23:00–01:05, … 23:00–06:05.
    static let nestedNight = (0..<7).map { hour in
        sleepRecord(
            "AsleepUnspecified", source: app, start: "2000-01-01 23:00:00 +0000",
            end: "2000-01-02 0\(hour):05:00 +0000")
    }

    /// The Watch's stages of one night, in bed from the iPhone and from the Watch itself.
    static let normalNight = [
        sleepRecord(
            "InBed", source: Export.phone, start: "2000-01-02 22:30:00 +0000", end: "2000-01-03 06:30:00 +0000"),
        sleepRecord(
            "InBed", source: Export.watch, start: "2000-01-02 22:40:00 +0000", end: "2000-01-03 06:20:00 +0000"),
        sleepRecord(
            "AsleepCore", source: Export.watch, start: "2000-01-02 22:45:00 +0000", end: "2000-01-03 01:00:00 +0000"),
        sleepRecord(
            "AsleepDeep", source: Export.watch, start: "2000-01-03 01:00:00 +0000", end: "2000-01-03 02:00:00 +0000"),
        sleepRecord(
            "AsleepREM", source: Export.watch, start: "2000-01-03 02:00:00 +0000", end: "2000-01-03 03:30:00 +0000"),
        sleepRecord(
            "Awake", source: Export.watch, start: "2000-01-03 03:30:00 +0000", end: "2000-01-03 03:32:00 +0000"),
        sleepRecord(
            "AsleepCore", source: Export.watch, start: "2000-01-03 03:32:00 +0000", end: "2000-01-03 06:15:00 +0000"),
    ]

    /// Steps a minute at a time from the Watch, the same minutes from the iPhone too.
    static let normalSteps = (0..<30).flatMap { minute -> [String] in
        let start = String(format: "2000-01-02 10:%02d:00 +0000", minute)
        let end = String(format: "2000-01-02 10:%02d:00 +0000", minute + 1)
        return [
            Export.record(steps, source: Export.watch, value: "80", unit: "count", start: start, end: end),
            Export.record(steps, source: Export.phone, value: "80", unit: "count", start: start, end: end),
        ]
    }

    @Test func nestedSleepSessionsAreASelfOverlapAndANormalNightIsNot() throws {
        let archive = try FedArchive()
        let found = try archive.audit([
            Export(exportDate: "2000-01-04 12:00:00 +0000", elements: Self.normalNight + Self.normalSteps),
            Export(
                exportDate: "2000-01-05 12:00:00 +0000",
                elements: Self.normalNight + Self.normalSteps + Self.nestedNight),
        ])
        #expect(found[0].only(.selfOverlap).isEmpty, "\(found[0].summaries)")
        #expect(found[0].only(.conflictingValues).isEmpty)
        let overlap = try #require(found[1].only(.selfOverlap).first)
        #expect(found[1].only(.selfOverlap).count == 1)
        #expect(overlap.sampleType == Self.sleep)
        #expect(overlap.recordCount == 7)
        #expect(overlap.severity == .warning)
        // 1 h 05 + 2 h 05 + … + 7 h 05 claimed; 23:00–06:05 passed.
        let claimed: Int = 28 * 3600 + 7 * 300
        let covered: Int = 7 * 3600 + 300
        #expect(overlap.evidence["claimedSeconds"] == String(claimed))
        #expect(overlap.evidence["coveredSeconds"] == String(covered))
        #expect(overlap.evidence["sources"] == "\(Self.app): 7")
        #expect(overlap.summary.contains("on 1 night: they claim 1 day 4 hours where 7 hours 5 minutes passed"))
        // Nested sessions are not also called backfills or duplicates.
        #expect(found[1].map(\.type) == [.selfOverlap], "\(found[1].summaries)")
    }

    /// Two sessions of one app sharing a few minutes, where one ends as the next begins, inflate
    /// nothing anyone would see: information, where a night claiming a day is a warning.
    @Test func aFewMinutesSharedIsInformation() throws {
        let archive = try FedArchive()
        let found = try archive.audit([
            Export(
                exportDate: "2000-01-04 12:00:00 +0000",
                elements: [
                    Self.sleepRecord(
                        "AsleepUnspecified", source: Self.app, start: "2000-01-02 23:00:00 +0000",
                        end: "2000-01-03 03:02:00 +0000"),
                    Self.sleepRecord(
                        "AsleepUnspecified", source: Self.app, start: "2000-01-03 03:00:00 +0000",
                        end: "2000-01-03 06:00:00 +0000"),
                ])
        ])
        let overlap = try #require(found[0].only(.selfOverlap).first)
        #expect(overlap.severity == .info)
        #expect(overlap.evidence["largestExcess"] == "2 minutes")
    }

    @Test func aCaseAlreadyReportedIsNotReportedAgain() throws {
        let archive = try FedArchive()
        let elements = Self.nestedNight
        let found = try archive.audit([
            Export(exportDate: "2000-01-04 12:00:00 +0000", elements: elements),
            Export(exportDate: "2000-01-05 12:00:00 +0000", elements: elements + [Self.normalSteps[0]]),
        ])
        #expect(found[0].only(.selfOverlap).count == 1)
        #expect(found[1].only(.selfOverlap).isEmpty)
    }

    @Test func anEditThatAddedASecondValueIsAConflict() throws {
        let archive = try FedArchive()
        let original = Export.record(
            Self.bodyMass, source: "Scale App TEST", value: "70.1", unit: "kg", start: "2000-01-02 07:00:00 +0000",
            created: "2000-01-02 07:00:05 +0000")
        let edit = Export.record(
            Self.bodyMass, source: "Scale App TEST", value: "71.4", unit: "kg", start: "2000-01-02 07:00:00 +0000",
            created: "2000-01-02 09:12:00 +0000")
        // A sensor's two samples in one second, written together: no edit.
        let beats = ["61", "64"].map {
            Export.record(value: $0, start: "2000-01-02 10:00:00 +0000", created: "2000-01-02 10:05:00 +0000")
        }
        // Versions of one sync identifier replace each other: HealthKit's business, not a conflict.
        let synced = ["1", "2"].map { version in
            Export.record(
                Self.bodyMass, source: "Other App TEST", value: "6\(version).0", unit: "kg",
                start: "2000-01-02 08:00:00 +0000", created: "2000-01-02 0\(version):00:00 +0000",
                metadata: [("HKMetadataKeySyncIdentifier", "weight-1"), ("HKMetadataKeySyncVersion", version)])
        }
        let found = try archive.audit([
            Export(exportDate: "2000-01-04 12:00:00 +0000", elements: [original] + beats + synced),
            Export(exportDate: "2000-01-05 12:00:00 +0000", elements: [original, edit] + beats + synced),
        ])
        #expect(found[0].isEmpty, "\(found[0].summaries)")
        #expect(found[1].summaries == ["conflicting_values \(Self.bodyMass) 2"])
        let conflict = try #require(found[1].first)
        #expect(conflict.severity == .warning)
        #expect(conflict.evidence["cases"] == "1")
        #expect(conflict.summary.hasPrefix("1 body mass measurement has two values from one source"))
        #expect(!conflict.summary.contains("71.4") && !conflict.evidence.values.contains { $0.contains("71.4") })
    }

    @Test func overlappingStepsCountOnlyWhenSummedTypesAreChosen() throws {
        let archive = try FedArchive()
        // An app's daily total written over its own hourly samples.
        let hourly = (8..<12).map { hour in
            Export.record(
                Self.steps, source: "Step App TEST", value: "500", unit: "count",
                start: "2000-01-02 \(String(format: "%02d", hour)):00:00 +0000",
                end: "2000-01-02 \(String(format: "%02d", hour + 1)):00:00 +0000")
        }
        let total = Export.record(
            Self.steps, source: "Step App TEST", value: "2000", unit: "count", start: "2000-01-02 08:00:00 +0000",
            end: "2000-01-02 12:00:00 +0000")
        let url = try Export(exportDate: "2000-01-04 12:00:00 +0000", elements: hourly + [total])
            .write(to: archive.folder, name: "steps.xml")
        let plain = try archive.store.writeExport(url, thresholds: Thresholds()).0.audit.anomalies
        #expect(plain.only(.selfOverlap).isEmpty)

        var thresholds = Thresholds()
        thresholds.selfOverlapSummedTypes = [Self.steps]
        let other = try ArchiveStore.open(at: archive.folder.appendingPathComponent("other.sqlite").path)
        let chosen = try other.writeExport(url, thresholds: thresholds).0
        let overlap = try #require(chosen.audit.anomalies.only(.selfOverlap).first)
        #expect(overlap.recordCount == 5)
        #expect(overlap.evidence["claimedSeconds"] == String(8 * 3600))
        #expect(overlap.evidence["coveredSeconds"] == String(4 * 3600))
    }
}

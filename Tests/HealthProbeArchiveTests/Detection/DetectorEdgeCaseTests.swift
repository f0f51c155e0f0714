import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

/// Each detector on its edge cases, with small hand-written exports.
@Suite("Detectors: edge cases")
struct DetectorEdgeCaseTests {
    typealias Export = MiniExport
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// The instant `hour`:00 UTC on 2000-`month`-`day`, written at `offset` hours.
    static func t(_ month: Int, _ day: Int, _ hour: Int = 8, offset: Int = 0) -> String {
        Export.instant(month, day, hour, offset: offset)
    }

    static func heartRate(_ value: String = "60", day: Int = 10, hour: Int = 8, offset: Int = 0) -> String {
        Export.record(value: value, start: t(2, day, hour, offset: offset))
    }

    @Test func emptyCapturesFindNothingAndAnEmptiedOneIsATotalLoss() throws {
        let support = try ArchiveTestSupport()
        let three = Export(elements: [Self.heartRate(day: 1), Self.heartRate(day: 2), Self.heartRate(day: 3)])
        let found = try support.audit([Export(), Export(), three, Export()])
        #expect(found[0].isEmpty)
        #expect(found[1].isEmpty)
        // February samples first seen after an empty export of 1 March: they should have been in it.
        #expect(found[2].summaries == ["historical_insertion \(Self.heartRate) 3"])
        #expect(found[3].summaries == ["silent_deletion \(Self.heartRate) 3"])
        #expect(found[3].first?.severity == .critical)
        #expect(found[3].first?.evidence["lossPercent"] == "100.0")
    }

    @Test func firstCaptureOnlyReportsDuplicatesOverlapsAndDivergence() throws {
        let support = try ArchiveTestSupport()
        let copy = Self.heartRate(day: 1)
        let old = Export.record(start: "1990-01-01 08:00:00 +0000")
        let found = try support.audit([Export(elements: [copy, copy, copy, old])])
        // Three identical copies are two surplus; an old sample in a first export is no backfill.
        #expect(found[0].summaries == ["duplicate \(Self.heartRate) 2"])
        // Copies lose nothing and count once in a day's figures: information, not an alarm.
        #expect(found[0].first?.severity == .info)
    }

    @Test func aDuplicateSummaryCountsItsCopiesInGoodEnglish() throws {
        let support = try ArchiveTestSupport()
        let once = Self.heartRate(day: 1)
        let twice = Self.heartRate(day: 2)
        let found = try support.audit([Export(elements: [once, once]), Export(elements: [twice, twice, twice])])
        #expect(
            found[0].only(.duplicate).first?.summary.contains("heart rate record is an extra copy of 1 sample") == true
        )
        #expect(
            found[1].only(.duplicate).first?.summary.contains("heart rate records are extra copies of 1 sample")
                == true)
    }

    @Test func aTypeWithOneRecordLosingItIsCritical() throws {
        let support = try ArchiveTestSupport()
        let weight = Export.record(
            "HKQuantityTypeIdentifierBodyMass", source: "Test Scale", value: "70", unit: "kg",
            start: Self.t(2, 1))
        let found = try support.audit([
            Export(elements: [weight, Self.heartRate()]), Export(elements: [Self.heartRate()]),
        ])
        let loss = try #require(found[1].only(.silentDeletion).first)
        #expect(found[1].count == 1)
        #expect(loss.sampleType == "HKQuantityTypeIdentifierBodyMass")
        #expect(loss.recordCount == 1)
        #expect(loss.severity == .critical)
        #expect(loss.evidence["previousCount"] == "1")
        #expect(loss.evidence["currentCount"] == "0")
    }

    @Test func futureDatedRecordsAreNeitherBackfillNorHiddenWhenTheyVanish() throws {
        let support = try ArchiveTestSupport()
        let skewed = Export.record(start: "2031-06-01 08:00:00 +0000")
        var second = Export(elements: [Self.heartRate(), skewed])
        second.exportDate = "2000-03-20 12:00:00 +0000"
        var third = Export(elements: [Self.heartRate()])
        third.exportDate = "2000-04-01 12:00:00 +0000"
        let found = try support.audit([Export(elements: [Self.heartRate()]), second, third])
        #expect(found[1].isEmpty)
        #expect(found[2].summaries == ["silent_deletion \(Self.heartRate) 1"])
        #expect(found[2].first?.evidence["dateRange"] == "2031-06-01")
    }

    @Test func anotherUTCOffsetChangesNothing() throws {
        let support = try ArchiveTestSupport()
        let utc = Export(elements: [Self.heartRate(day: 1, hour: 23), Self.heartRate("61", day: 2, hour: 1)])
        var pacific = Export(elements: [
            Self.heartRate(day: 1, hour: 23, offset: -7), Self.heartRate("61", day: 2, hour: 1, offset: -7),
        ])
        pacific.exportDate = "2000-03-01 05:00:00 -0700"
        let found = try support.audit([utc, pacific])
        #expect(found[1].isEmpty, "\(found[1].summaries)")
    }

    @Test func correlationChildrenAtTopLevelAreNeverDuplicates() throws {
        let support = try ArchiveTestSupport()
        let systolic = Export.record(
            "HKQuantityTypeIdentifierBloodPressureSystolic", source: Export.phone, value: "120", unit: "mmHg",
            start: Self.t(2, 1))
        let diastolic = Export.record(
            "HKQuantityTypeIdentifierBloodPressureDiastolic", source: Export.phone, value: "80", unit: "mmHg",
            start: Self.t(2, 1))
        let reading = [
            systolic, diastolic, Export.bloodPressure(start: Self.t(2, 1), children: [systolic, diastolic]),
        ]
        let found = try support.audit([Export(elements: reading), Export(elements: reading)])
        #expect(found[0].isEmpty, "\(found[0].summaries)")
        #expect(found[1].isEmpty, "\(found[1].summaries)")
    }

    @Test func aHigherSyncVersionIsAnUpdateNotAnAnomaly() throws {
        let support = try ArchiveTestSupport()
        func synced(_ value: String, version: String) -> String {
            Export.record(
                value: value, start: Self.t(2, 1),
                metadata: [("HKMetadataKeySyncIdentifier", "sync-1"), ("HKMetadataKeySyncVersion", version)])
        }
        let found = try support.audit([
            Export(elements: [synced("60", version: "1")]), Export(elements: [synced("65", version: "2")]),
        ])
        #expect(found[1].isEmpty, "\(found[1].summaries)")
        let store = try support.openArchive()
        #expect(try store.fetchAuditEntries().contains { $0.event == "recordsUpdated" })
        let reason = try store.writer.read { db in
            try String.fetchOne(db, sql: "SELECT goneReason FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(reason == "replaced")
    }

    @Test func aValueRewrittenWithoutANewerVersionIsValueModified() throws {
        let support = try ArchiveTestSupport()
        let found = try support.audit([
            Export(elements: [Self.heartRate("60"), Self.heartRate("70", day: 11)]),
            Export(elements: [Self.heartRate("64"), Self.heartRate("70", day: 11)]),
        ])
        #expect(found[1].summaries == ["value_modified \(Self.heartRate) 1"])
        #expect(found[1].first?.evidence["valueChanged"] == "1")
    }

    @Test func threeIdenticalCopiesAreTwoSurplusAndOldSurplusIsNotReportedAgain() throws {
        let support = try ArchiveTestSupport()
        let sample = Self.heartRate()
        let found = try support.audit([
            Export(elements: [sample, sample]), Export(elements: [sample, sample]),
            Export(elements: [sample, sample, sample, sample]),
        ])
        #expect(found[0].summaries == ["duplicate \(Self.heartRate) 1"])
        #expect(found[1].isEmpty, "\(found[1].summaries)")
        #expect(found[2].summaries == ["duplicate \(Self.heartRate) 2"])
        #expect(found[2].first?.evidence["surplusAlreadyPresent"] == "1")
    }

    @Test func aRecordThatVanishesAndComesBackIsReportedOnceThenNoted() throws {
        let support = try ArchiveTestSupport()
        let both = Export(elements: [Self.heartRate(day: 1), Self.heartRate(day: 2)])
        let found = try support.audit([both, Export(elements: [Self.heartRate(day: 1)]), both])
        #expect(found[1].summaries == ["silent_deletion \(Self.heartRate) 1"])
        #expect(found[2].isEmpty, "\(found[2].summaries)")
        let store = try support.openArchive()
        #expect(try store.fetchAuditEntries().contains { $0.event == "recordsReturned" && $0.captureId == 3 })
        let stillGone = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(stillGone == 0)
    }

    @Test func oldSamplesArrivingLateAreBackfillUnlessWithinTheirGrace() throws {
        let support = try ArchiveTestSupport()
        let resting = Export.record("HKQuantityTypeIdentifierRestingHeartRate", value: "55", start: Self.t(2, 20))
        var second = Export(elements: [
            Self.heartRate(day: 28), Self.heartRate("61", day: 2), Self.heartRate("62", day: 3),
            Self.heartRate("63", day: 27), resting,
        ])
        second.exportDate = "2000-03-10 12:00:00 +0000"
        let found = try support.audit([Export(elements: [Self.heartRate(day: 28)]), second])
        // 2 and 3 February ended weeks before the first export (1 March); 27 February is within
        // the week of grace, and resting heart rate has two weeks.
        #expect(found[1].summaries == ["historical_insertion \(Self.heartRate) 2"])
        #expect(found[1].first?.severity == .info)
        #expect(found[1].first?.evidence["dateRange"] == "2000-02-02 – 2000-02-03")
    }

    @Test func twoSourcesWritingOneSampleIsAnOverlapOnlyWhenNew() throws {
        let support = try ArchiveTestSupport()
        func step(_ source: String, day: Int) -> String {
            Export.record(
                Self.steps, source: source, value: "120", unit: "count", start: Self.t(2, day),
                end: Self.t(2, day, 9))
        }
        var second = Export(elements: [
            step(Export.watch, day: 1), step(Export.phone, day: 1), step(Export.watch, day: 28),
            step(Export.phone, day: 28),
        ])
        second.exportDate = "2000-03-02 12:00:00 +0000"
        let found = try support.audit([
            Export(elements: [step(Export.watch, day: 1), step(Export.phone, day: 1)]), second,
        ])
        #expect(found[0].summaries == ["source_overlap \(Self.steps) 1"])
        #expect(found[0].first?.severity == .info)
        // The overlap of 1 February is not new; that of 28 February is.
        #expect(found[1].summaries == ["source_overlap \(Self.steps) 1"])
        #expect(found[1].first?.evidence["dateRange"] == "2000-02-28")
    }

    @Test func theSameSampleWrittenAgainWithOtherDetailsIsNoLoss() throws {
        let support = try ArchiveTestSupport()
        let original = Export.record(value: "60", start: Self.t(2, 1), created: Self.t(2, 1, 9))
        let rewritten = Export.record(value: "60", start: Self.t(2, 1), created: Self.t(2, 5, 9))
        let found = try support.audit([Export(elements: [original]), Export(elements: [rewritten])])
        #expect(found[1].isEmpty, "\(found[1].summaries)")
    }
}

/// A writer replaying one sample thousands of times: each copy is its own occurrence, found again
/// by the next export, and counted exactly.
@Suite("Identical records by the thousand")
struct ReplayedRecordTests {
    @Test func thousandsOfIdenticalCopiesAreStoredAndMetAgainOneForOne() throws {
        let support = try ArchiveTestSupport()
        let copy = MiniExport.record(start: "2000-02-01 08:00:00 +0000")
        let other = MiniExport.record(value: "61", start: "2000-02-01 08:00:00 +0000")
        let found = try support.audit([
            MiniExport(elements: Array(repeating: copy, count: 3_000) + [other]),
            MiniExport(elements: [other] + Array(repeating: copy, count: 3_000)),
            MiniExport(elements: Array(repeating: copy, count: 2_500) + [other]),
        ])
        #expect(found[0].summaries == ["duplicate \(DetectorEdgeCaseTests.heartRate) 2999"])
        // A replay storm is a writer gone wrong: a warning, never critical (nothing is lost).
        #expect(found[0].first?.severity == .warning)
        #expect(found[0].first?.evidence["mostCopies"] == "3000")
        #expect(found[1].isEmpty, "\(found[1].summaries)")
        let store = try support.openArchive()
        let captures = try store.fetchCaptures()
        #expect(captures.map(\.records) == [3_001, 3_001, 2_501])
        #expect(captures.map(\.new) == [3_001, 0, 0])
        #expect(captures.map(\.gone) == [0, 0, 500])
        let occurrences = try store.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(occurrence) FROM record")
        }
        #expect(occurrences == 2_999)
    }
}

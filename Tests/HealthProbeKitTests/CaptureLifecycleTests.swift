import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeKit

@Suite("Captures: what a second check reports")
struct CaptureLifecycleTests {
    static let base = SyntheticExportOptions(elementCount: 3_000, seed: 7)

    @Test func sameExportCheckedTwiceHasNothingNewAndNothingGone() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.zip", Self.base)
        let store = try support.openArchive()
        let first = try support.check(export, in: store).capture
        let second = try support.check(export, in: store).capture
        #expect(first.records > 3_000)
        #expect(first.new == first.records)
        #expect(second.records == first.records)
        #expect(second.new == 0)
        #expect(second.gone == 0)
        #expect(second.unchanged == second.records)
        #expect(second.previousCaptureId == first.id)
    }

    @Test func otherOffsetAndDeviceAddressesChangeNoFingerprint() throws {
        let support = try ArchiveTestSupport()
        var shifted = Self.base
        shifted.utcOffsetSeconds = -7 * 3600
        shifted.deviceAddressSeed = 99
        let original = try support.generate("original.xml", Self.base)
        let moved = try support.generate("moved.xml", shifted)
        #expect(try Data(contentsOf: original) != Data(contentsOf: moved))
        let store = try support.openArchive()
        _ = try support.check(original, in: store)
        let second = try support.check(moved, in: store).capture
        #expect(second.new == 0)
        #expect(second.gone == 0)
        let fingerprintsPerCapture = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record")
        }
        #expect(fingerprintsPerCapture == second.records)
    }

    @Test func omittedRecordsAreGoneAndComeBackAsNew() throws {
        let support = try ArchiveTestSupport()
        var thinner = Self.base
        thinner.omitEveryNth = 100
        let full = try support.generate("full.xml", Self.base)
        let partial = try support.generate("partial.xml", thinner)
        let store = try support.openArchive()
        let first = try support.check(full, in: store).capture
        let second = try support.check(partial, in: store).capture
        let third = try support.check(full, in: store).capture
        #expect(second.gone == first.records - second.records)
        #expect(second.gone > 0)
        #expect(second.new == 0)
        #expect(third.new == second.gone)
        #expect(third.gone == 0)
        let stillGone = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE goneCapture IS NOT NULL")
        }
        #expect(stillGone == 0)
    }

    @Test func identicalCopiesInOneExportAreKeptAsAMultiset() throws {
        let support = try ArchiveTestSupport()
        let body = Array(repeating: FixtureFiles.stepRecord, count: 3).joined(separator: "\n")
        let url = try FixtureFiles.write(FixtureFiles.export(body), named: "copies.xml", in: support.folder)
        let store = try support.openArchive()
        let first = try support.check(url, in: store).capture
        #expect(first.records == 3)
        #expect(first.new == 3)
        let occurrences = try store.writer.read { db in
            try Int.fetchAll(db, sql: "SELECT occurrence FROM record ORDER BY occurrence")
        }
        #expect(occurrences == [0, 1, 2])
        let second = try support.check(url, in: store).capture
        #expect(second.new == 0)
        #expect(second.unchanged == 3)
    }

    @Test func snapshotsAndDayBinsDescribeEachType() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.xml", Self.base)
        let store = try support.openArchive()
        let capture = try support.check(export, in: store).capture
        let (snapshotTotal, binTotal, sources) = try store.writer.read { db in
            (
                try Int.fetchOne(
                    db, sql: "SELECT SUM(count) FROM typeSnapshot WHERE captureId = ?", arguments: [capture.id]),
                try Int.fetchOne(
                    db, sql: "SELECT SUM(count) FROM typeDayBin WHERE captureId = ?", arguments: [capture.id]),
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT sourceCounts FROM typeSnapshot WHERE captureId = ? AND type = 'HKQuantityTypeIdentifierStepCount'",
                    arguments: [capture.id])
            )
        }
        #expect(snapshotTotal == capture.records)
        #expect(binTotal == capture.records)
        #expect(sources?.contains("iPhone-TESTDEVICE") == true)
    }

    @Test func workoutRoutesAreHashedWithTheirPointCounts() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.zip", Self.base)
        let store = try support.openArchive()
        let capture = try support.check(export, in: store).capture
        let routes = try store.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT contentHash, pointCount FROM routeFile WHERE captureId = ?", arguments: [capture.id])
        }
        #expect(routes.count == capture.elementCounts["Workout"])
        #expect(
            routes.allSatisfy { ($0["contentHash"] as String?)?.count == 64 && ($0["pointCount"] as Int? ?? 0) >= 5 })
    }

    @Test func correlationChildrenAtTopLevelAreLinkedToTheirCorrelation() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.xml", Self.base)
        let store = try support.openArchive()
        let capture = try support.check(export, in: store).capture
        let correlations = try #require(capture.elementCounts["Correlation"])
        let linked = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE correlationId IS NOT NULL")
        }
        #expect(correlations > 0)
        #expect(linked == correlations * 2)
    }
}

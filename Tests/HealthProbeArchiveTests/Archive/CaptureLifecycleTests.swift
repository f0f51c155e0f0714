import AppleHealthExport
import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive

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

    /// Two different records can share a 64-bit index key: then the one that finds the other at
    /// its key takes the next occurrence. Here a stored row's strict fingerprint is altered, as
    /// if another record held its key: checking the export again stores the real record anew
    /// and finds the altered one gone, and every other record is seen again.
    @Test func aRecordWhoseKeyAnotherHoldsTakesTheNextOccurrence() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.zip", Self.base)
        let store = try support.openArchive()
        let first = try support.check(export, in: store).capture
        let forgedID = try store.writer.write { db -> Int64 in
            let id = try #require(
                try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM record WHERE kind = 'record' AND occurrence = 0"))
            try db.execute(
                sql: "UPDATE record SET strictFingerprint = zeroblob(16) WHERE id = ?", arguments: [id])
            return id
        }
        let second = try support.check(export, in: store).capture
        #expect(second.records == first.records)
        #expect(second.new == 1)
        #expect(second.gone == 1)
        let (forgedGone, realOccurrence) = try store.writer.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT goneCapture FROM record WHERE id = ?", arguments: [forgedID]),
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT r.occurrence FROM record r JOIN record f ON f.id = ?
                        WHERE r.identityKey = f.identityKey AND r.id <> f.id
                        """, arguments: [forgedID])
            )
        }
        #expect(forgedGone == second.id)
        #expect(realOccurrence == 1)
    }

    /// A first import loads with a rollback journal and without enforcing foreign keys
    /// (`ArchiveStore.withBulkLoadJournal`): afterwards every reference holds, and the archive
    /// is back in WAL mode with foreign keys enforced.
    @Test func aFirstImportLeavesEveryReferenceValid() throws {
        let support = try ArchiveTestSupport()
        let export = try support.generate("export.zip", Self.base)
        let store = try support.openArchive()
        _ = try support.check(export, in: store)
        let (violations, misplaced, members, routes, devices) = try store.writer.read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count,
                // Rows stored many to a statement get their ids by count: each must be the right one.
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) FROM correlationMember JOIN record ON record.id = correlationMember.correlationId
                                WHERE record.kind <> 'correlation')
                            + (SELECT COUNT(*) FROM referencedFile JOIN record ON record.id = referencedFile.recordId
                                WHERE record.kind <> 'workout' AND referencedFile.kind = 'route')
                        """) ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM correlationMember") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM referencedFile WHERE kind = 'route'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT deviceId) FROM record") ?? 0
            )
        }
        #expect(violations == 0)
        #expect(misplaced == 0)
        #expect(members > 0 && routes > 0 && devices > 1, "the export exercises every reference")
        let (journal, foreignKeys) = try store.writer.writeWithoutTransaction { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Bool.fetchOne(db, sql: "PRAGMA foreign_keys")
            )
        }
        #expect(journal == "wal")
        #expect(foreignKeys == true)
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

    /// A first import stores records many to a statement; copies there and in the remainder of
    /// a batch still get their occurrences, and every record is stored once.
    @Test func copiesAmongManyRecordsAreKeptAsAMultiset() throws {
        let support = try ArchiveTestSupport()
        let perStatement = RowAppender.rowsPerStatement
        let distinct = 2 * perStatement + 10
        var lines = (0..<distinct).map { minute in
            FixtureFiles.stepRecord.replacingOccurrences(of: "value=\"42\"", with: "value=\"\(1_000 + minute)\"")
        }
        // Two copies inside the first statement's rows, one in the second's, two at the end
        // (stored one by one, after the last whole statement).
        for position in [11, 12, perStatement + 5] { lines.insert(FixtureFiles.stepRecord, at: position) }
        lines += [FixtureFiles.stepRecord, FixtureFiles.stepRecord]
        let total = distinct + 5
        let url = try FixtureFiles.write(
            FixtureFiles.export(lines.joined(separator: "\n")), named: "copies.xml", in: support.folder)
        let store = try support.openArchive()
        let first = try support.check(url, in: store).capture
        #expect(first.records == total)
        #expect(first.new == total)
        let (occurrences, ids) = try store.writer.read { db in
            (
                try Int.fetchAll(db, sql: "SELECT occurrence FROM record WHERE value = '42' ORDER BY occurrence"),
                try Int64.fetchAll(db, sql: "SELECT id FROM record ORDER BY id")
            )
        }
        #expect(occurrences == [0, 1, 2, 3, 4])
        #expect(ids == Array(1...Int64(total)))
        let second = try support.check(url, in: store).capture
        #expect(second.new == 0)
        #expect(second.gone == 0)
        #expect(second.unchanged == total)
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

    /// A first import links children stored before their correlation as it is stored, and those
    /// after it at the end; both end up linked to the right correlation, and stay so.
    @Test func childrenBeforeOrAfterTheirCorrelationAreLinked() throws {
        func sample(_ type: String, _ hour: Int, _ value: Int) -> String {
            """
            <Record type="HKQuantityTypeIdentifierBloodPressure\(type)" sourceName="iPhone-TESTDEVICE" \
            unit="mmHg" creationDate="2000-01-01 0\(hour):00:30 +0000" startDate="2000-01-01 0\(hour):00:00 +0000" \
            endDate="2000-01-01 0\(hour):00:00 +0000" value="\(value)"/>
            """
        }
        func correlation(_ hour: Int, _ children: String) -> String {
            """
            <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="iPhone-TESTDEVICE" \
            creationDate="2000-01-01 0\(hour):00:30 +0000" startDate="2000-01-01 0\(hour):00:00 +0000" \
            endDate="2000-01-01 0\(hour):00:00 +0000">
            \(children)
            </Correlation>
            """
        }
        let eight = sample("Systolic", 8, 120) + "\n" + sample("Diastolic", 8, 80)
        let nine = sample("Systolic", 9, 125) + "\n" + sample("Diastolic", 9, 85)
        let body = [correlation(8, eight), eight, nine, correlation(9, nine)].joined(separator: "\n")
        let support = try ArchiveTestSupport()
        let url = try FixtureFiles.write(FixtureFiles.export(body), named: "export.xml", in: support.folder)
        let store = try support.openArchive()
        for check in 1...2 {
            let result = try support.check(url, in: store)
            #expect(result.audit.anomalies.isEmpty, "check \(check)")
            let (linked, rightOnes) = try store.writer.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE correlationId IS NOT NULL") ?? 0,
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM record JOIN record AS c ON c.id = record.correlationId
                            WHERE c.kind = 'correlation' AND c.startDate = record.startDate
                            """) ?? 0
                )
            }
            #expect(linked == 4, "check \(check)")
            #expect(rightOnes == 4, "check \(check)")
        }
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

import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

/// v23 moves each record's sightings out of its row into `recordSighting`: an archive written
/// before keeps every sighting, and one that has lost a sighting is said to be broken.
@Suite("Record sightings beside the record")
struct RecordSightingsMigrationTests {
    /// Three records as v22 kept them, after three exports: one seen in all three, one new in the
    /// third, one gone from it after two sightings.
    static func version22Archive() throws -> String {
        let path = try FixtureFiles.temporaryFolder().appendingPathComponent("v22.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try ArchiveStore.migrator.migrate(queue, upTo: "v22 restored records")
        try queue.write { db in
            try db.execute(sql: "PRAGMA application_id = \(ArchiveStore.applicationID)")
            for capture in 1...3 {
                try db.execute(
                    sql: """
                        INSERT INTO capture (id, origin, scope, status, startedAt, completedAt, previousCaptureId)
                        VALUES (?, 'export', 'full', 'complete', ?, ?, ?)
                        """, arguments: [capture, capture * 100, capture * 100 + 1, capture > 1 ? capture - 1 : nil])
            }
            let records: [(id: Int, first: Int, last: Int, previous: Int?, gone: Int?)] = [
                (1, 1, 3, 2, nil), (2, 3, 3, nil, nil), (3, 1, 2, 1, 3),
            ]
            for record in records {
                try db.execute(
                    sql: """
                        INSERT INTO record (id, kind, type, sourceName, unit, value, startDate, endDate,
                            strictFingerprint, identityKey, semanticFingerprint, semanticKey, fuzzyFingerprint,
                            occurrence, firstSeenCapture, lastSeenCapture, previousSeenCapture, lastVerifiedAt,
                            goneCapture, goneReason)
                        VALUES (?, 'record', 'HKQuantityTypeIdentifierStepCount', 'iPhone-TESTDEVICE', 'count', '10',
                            946684800, 946684860, x'01', ?, x'01', ?, x'01', 0, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        record.id, record.id, record.id, record.first, record.last, record.previous,
                        Double(record.last * 100), record.gone, record.gone.map { _ in "absent" },
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO typeSnapshot (captureId, type, count, checksum, sourceCounts)
                    VALUES (3, 'HKQuantityTypeIdentifierStepCount', 2, '00', '{}')
                    """)
        }
        try queue.close()
        return path
    }

    @Test func anArchiveFromBeforeKeepsEverySighting() throws {
        let path = try Self.version22Archive()
        let store = try ArchiveStore.open(at: path)
        let sightings = try store.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT recordId, lastSeenCapture, previousSeenCapture FROM recordSighting ORDER BY recordId
                    """
            ).map {
                "\($0[0] as Int64) \($0[1] as Int64) \(($0[2] as Int64?).map(String.init) ?? "-")"
            }
        }
        #expect(sightings == ["1 3 2", "2 3 -", "3 2 1"])
        let columns = try store.writer.read { db in try db.columns(in: "record").map(\.name) }
        #expect(!columns.contains("lastSeenCapture") && !columns.contains("previousSeenCapture"))
        #expect(!columns.contains("lastVerifiedAt"))
        #expect(try store.verify(recording: false).problems == [])
    }

    @Test func aRecordWithoutItsSightingIsABrokenArchive() throws {
        let path = try Self.version22Archive()
        do {
            let store = try ArchiveStore.open(at: path)
            try store.writer.write { db in try db.execute(sql: "DELETE FROM recordSighting WHERE recordId = 2") }
        }
        let problems = try ArchiveStore.open(at: path).verify(recording: false).problems
        #expect(problems.first == "1 record has no sighting: restore a backup of the archive")
    }
}

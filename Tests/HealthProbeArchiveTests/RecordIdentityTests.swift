import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

@Suite("Record identity: numbers, semantic fingerprints and keys")
struct RecordIdentityTests {
    static func record(_ value: String, source: String = "Test User\u{2019}s Apple Watch") throws -> HealthRecord {
        let xml = FixtureFiles.export(
            """
            <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="\(source)" unit="count/min" \
            creationDate="2000-01-01 08:00:00 +0000" startDate="2000-01-01 08:00:00 +0000" \
            endDate="2000-01-01 08:00:00 +0000" value="\(value)"/>
            """)
        var records: [HealthRecord] = []
        _ = try AppleExportReader(source: .inMemory(Array(xml.utf8), name: "export.xml")).read {
            records.append(HealthRecord(exportElement: $0))
        }
        return try #require(records.first)
    }

    @Test func exportRecordsCarryTheirNumber() throws {
        #expect(try Self.record("60").numericValue == 60)
        #expect(try Self.record("60.5").numericValue == 60.5)
        #expect(try Self.record("HKCategoryValueNotApplicable").numericValue == nil)
    }

    @Test func theSameNumberWrittenTwoWaysIsTheSameSample() throws {
        #expect(
            RecordFingerprints.semantic(try Self.record("60")) == RecordFingerprints.semantic(try Self.record("60.0")))
        #expect(
            RecordFingerprints.semantic(try Self.record("60")) != RecordFingerprints.semantic(try Self.record("61")))
    }

    @Test func theSemanticKeyIgnoresTheSourceAndTheFingerprintDoesNot() throws {
        let watch = try Self.record("60")
        let phone = try Self.record("60", source: "iPhone-TESTDEVICE")
        #expect(RecordFingerprints(watch).semanticKey == RecordFingerprints(phone).semanticKey)
        #expect(RecordFingerprints(watch).semantic != RecordFingerprints(phone).semantic)
    }

    /// The fingerprinting of an import remembers the source names it normalised; another
    /// Unicode form of a name (equal as a `String`, not as bytes) must not take its entry.
    @Test func fingerprintsInABatchAreThoseOfEachRecordAlone() throws {
        let composed = try Self.record("60", source: "Caf\u{E9} Watch")
        let decomposed = try Self.record("60", source: "Cafe\u{301} Watch")
        var builder = PreparedBatch.Builder(rowsPerBatch: 4)
        let inBatch = [composed, decomposed, composed].map { builder.append($0) }
        let alone = [composed, decomposed, composed].map { RecordFingerprints($0) }
        #expect(inBatch == alone)
    }

    /// The encoder's buffer grows mid-record for long content (it starts at 512 bytes); what
    /// was already encoded must survive the move, so the same record encoded again into the
    /// grown buffer gives the same fingerprints.
    @Test func longContentFingerprintsTheSameBeforeAndAfterTheBufferGrows() {
        let long = HealthRecord(
            kind: .record, type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone-TESTDEVICE", unit: "count",
            value: "42", startDate: 946_684_800, endDate: 946_685_100,
            metadataJSON: "[[\"note\",\"" + String(repeating: "x", count: 3_000) + "\"]]")
        var builder = PreparedBatch.Builder(rowsPerBatch: 2)
        let first = builder.append(long)
        let again = builder.append(long)
        #expect(first == again)
        #expect(first != RecordFingerprints(HealthRecord(kind: .record, type: "HKQuantityTypeIdentifierStepCount")))
    }

    @Test func aVersion1ArchiveIsMigratedWithItsKeysRecomputed() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("v1.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try ArchiveStore.migrator.migrate(queue, upTo: "v1 captures and records")
            try queue.write { db in
                try db.execute(sql: "PRAGMA application_id = \(ArchiveStore.applicationID)")
                try db.execute(
                    sql: """
                        INSERT INTO capture (id, origin, scope, status, startedAt) VALUES (1, 'export', 'full', 'complete', 0);
                        INSERT INTO record (kind, type, sourceName, unit, value, startDate, endDate, strictFingerprint,
                            identityKey, semanticFingerprint, semanticKey, fuzzyFingerprint, occurrence,
                            firstSeenCapture, lastSeenCapture)
                        VALUES ('record', 'HKQuantityTypeIdentifierHeartRate', 'Test Source', 'count/min', '60',
                            946713600, 946713600, x'00', 1, x'00', 0, x'00', 0, 1, 1);
                        """)
            }
            try queue.close()
        }
        let store = try ArchiveStore.open(at: path)
        let row = try #require(
            try store.writer.read { db in
                try Row.fetchOne(db, sql: "SELECT numericValue, semanticKey, semanticFingerprint FROM record")
            })
        let expected = HealthRecord(
            kind: .record, type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Test Source", unit: "count/min",
            value: "60", startDate: 946_713_600, endDate: 946_713_600)
        #expect(row["numericValue"] as Double? == 60)
        #expect(row["semanticKey"] as Int64 == RecordFingerprints.sameSampleKey(expected))
        #expect(row["semanticFingerprint"] as Data == Data(RecordFingerprints.semantic(expected).bytes))
        #expect(try store.fetchAuditEntries().last?.event == "archiveMigrated")
    }
}

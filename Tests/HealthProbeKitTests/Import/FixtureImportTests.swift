import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

@Suite("Importing the shared real-export fixtures")
struct FixtureImportTests {
    @Test(arguments: FixtureFiles.topLevelCounts.keys.sorted())
    func recordsCountTopLevelElementsOtherThanExportDateAndMe(_ fixture: String) throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let capture = try support.check(FixtureFiles.url(fixture), in: store).capture
        #expect(capture.records == FixtureFiles.topLevelCounts[fixture])
        #expect(capture.new + capture.unchanged == capture.records)
        let stored = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") }
        #expect(stored == capture.records)
    }

    @Test func everyKindOfChildIsStored() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        for fixture in ["dogsheep/export.xml", "opendroid/sampleexport.xml", "opendroid/sampleexport-2.xml"] {
            _ = try support.check(FixtureFiles.url(fixture), in: store)
        }
        let details = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT coalesce(details, '') || coalesce(metadata, '') FROM record").joined()
        }
        for child in [
            "beats", "events", "routes", "locations", "sensitivityPoints", "HKMetadataKeySyncIdentifier",
            "Withings Link", "HKMetadataKeyHeartRateMotionContext",
        ] {
            #expect(details.contains(child), "no \(child) stored")
        }
    }

    @Test func addressesAreLeftOutOfStoredDevices() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let capture = try support.check(FixtureFiles.url("opendroid/audio_exposure.xml"), in: store).capture
        let devices = try store.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT d.description FROM record JOIN device d ON d.id = record.deviceId")
        }
        let text = try String(contentsOf: FixtureFiles.url("opendroid/audio_exposure.xml"), encoding: .utf8)
        let written = try Regex(#"device="[^"]*""#)
        let withoutAddresses = Set(
            text.matches(of: written).map { text[$0.range].replacing(try! Regex("0x[0-9a-f]+"), with: "") })
        #expect(capture.records == 4951)
        #expect(withoutAddresses.count > 1)
        #expect(devices.count == withoutAddresses.count)
        #expect(devices.allSatisfy { !$0.contains("0x") })
    }

    @Test func garbageTypedRecordIsKeptAndCounted() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(FixtureFiles.url("opendroid/sampleexport-2.xml"), in: store)
        let garbage = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE type = 'c'")
        }
        #expect(garbage == 1)
    }
}

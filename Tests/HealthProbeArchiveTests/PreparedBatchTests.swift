import AppleHealthExport
import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// An import prepares `Record` elements straight from the element, skipping `HealthRecord`
/// (``PreparedBatch/append(exportRecord:fingerprintedBy:)``). What it stores and how it
/// fingerprints must be exactly what the record would have given, byte for byte.
@Suite("Preparing export records for the archive")
struct PreparedBatchTests {
    /// Prepares every `Record` of `url` both ways; returns how many were compared.
    static func compareBothWays(_ url: URL) throws -> Int {
        var compared = 0
        _ = try AppleExportReader(url: url).read { element in
            guard case .record(let record) = element else { return }
            var viaRecord = PreparedBatch(reservingRows: 1)
            var recordMaker = RecordFingerprints.Maker()
            let healthRecord = HealthRecord(exportElement: element)
            let expected = viaRecord.append(healthRecord, fingerprintedBy: &recordMaker)
            var direct = PreparedBatch(reservingRows: 1)
            var directMaker = RecordFingerprints.Maker()
            let (fingerprints, numbers) = direct.append(exportRecord: record, fingerprintedBy: &directMaker)
            #expect(fingerprints == expected)
            #expect(direct.bytes == viaRecord.bytes)
            #expect(String(describing: direct.rows) == String(describing: viaRecord.rows))
            #expect(numbers.numericValue == healthRecord.numericValue)
            #expect(numbers.startDate == healthRecord.startDate)
            compared += 1
        }
        return compared
    }

    @Test(arguments: FixtureFiles.topLevelCounts.keys.sorted())
    func realExportRecordsArePreparedAsTheirRecordsAre(_ fixture: String) throws {
        #expect(try Self.compareBothWays(FixtureFiles.url(fixture)) > 0)
    }

    /// Beats, metadata with timestamps, several entries to sort, attributes and children no
    /// field models, characters to escape, a record without unit, value or device.
    @Test func unusualRecordsArePreparedAsTheirRecordsAre() throws {
        let folder = try FixtureFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = SyntheticExportOptions(elementCount: 3_000, seed: 7, utcOffsetSeconds: 3600, deviceAddressSeed: 1)
        options.omitEveryNth = 0
        let synthetic = folder.appendingPathComponent("synthetic.xml")
        try SyntheticExportGenerator(options: options).writeXML(to: synthetic)
        #expect(try Self.compareBothWays(synthetic) > 2_000)

        let handWritten = folder.appendingPathComponent("unusual.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Test User&apos;s &quot;Watch&quot;" \
            unit="count/min" startDate="2000-01-01 09:30:00 +0100" endDate="2000-01-01 09:30:00 +0100" \
            value="61.5" colour="blue" device="&lt;&lt;HKDevice: 0x1&gt;, name:Watch, model:Watch&gt;">
              <MetadataEntry key="b" value="2"/>
              <MetadataEntry key="HKMetadataKeySyncVersion" value="2000-01-01 09:30:00 +0100"/>
              <MetadataEntry key="a" value="tab&#9;and \\ backslash"/>
              <Unmodelled note="kept"/>
             </Record>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone-TESTDEVICE" \
            startDate="2000-01-01 23:00:00 +0100" endDate="2000-01-02 07:00:00 +0100">
              <MetadataEntry key="HKTimeZone" value="2000-01-01 09:30:00.25 +0100"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" unit="count" \
            creationDate="2000-01-02 08:00:00 -0700" startDate="2000-01-02 07:00:00 -0700" \
            endDate="2000-01-02 07:10:00 -0700" value="NaN"/>
            </HealthData>
            """.utf8
        ).write(to: handWritten)
        #expect(try Self.compareBothWays(handWritten) == 3)
    }

    /// Metadata is written straight into the batch; a record without any stores NULL, not `[]`.
    @Test func recordsWithoutMetadataStoreNone() throws {
        let folder = try FixtureFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("plain.xml")
        try Data(
            """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" unit="count" \
            startDate="2000-01-01 00:00:00 +0000" endDate="2000-01-01 00:01:00 +0000" value="3"/>
            </HealthData>
            """.utf8
        ).write(to: url)
        var batch = PreparedBatch(reservingRows: 1)
        var maker = RecordFingerprints.Maker()
        _ = try AppleExportReader(url: url).read { element in
            guard case .record(let record) = element else { return }
            _ = batch.append(exportRecord: record, fingerprintedBy: &maker)
        }
        #expect(batch.count == 1)
        #expect(batch.rows.first?.text.metadata.isNull == true)
        #expect(batch.rows.first?.text.details.isNull == true)
        #expect(batch.rows.first?.numbers.numericValue == 3)
    }
}

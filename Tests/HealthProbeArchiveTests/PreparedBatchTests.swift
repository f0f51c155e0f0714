import AppleHealthExport
import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive

/// An import prepares most `Record`s straight from the reader's bytes (``RecordElementSpans``),
/// the others straight from the element, skipping `HealthRecord` (``ExportRowEncoder``), and
/// fingerprints them on another thread (``ExportRowFingerprinter``). What it stores, how it
/// fingerprints and what it counts must be exactly what each element's record would have given,
/// byte for byte.
@Suite("Preparing export records for the archive")
struct PreparedBatchTests {
    /// One row as the writer binds it: every value's bytes, its numbers and its keys.
    struct BoundRow: Equatable {
        var values: [[UInt8]?]
        var numbers: String
        var keys: [Int64]

        init(_ row: PreparedBatch.Row, _ bytes: [UInt8]) {
            let text = row.text
            values = [
                text.kind, text.type, text.sourceName, text.sourceVersion, text.device, text.unit, text.value,
                text.metadata, text.details, text.healthKitUUID, text.metadataAsWritten, text.sampleUUID,
                row.strictFingerprint, row.semanticFingerprint, row.fuzzyFingerprint,
            ].map { $0.isNull ? nil : Array(bytes[$0.range]) }
            numbers = String(describing: row.numbers)
            keys = [row.identityKey, row.semanticKey]
        }
    }

    /// What a way of preparing an export gave: its rows and its totals.
    struct Prepared {
        var rows: [BoundRow] = []
        var totals = CaptureAggregates()
        var readInPlace = 0

        mutating func add(_ batch: PreparedBatch) {
            #expect(batch.fingerprintedRows == batch.count)
            rows += batch.rows.map { BoundRow($0, batch.bytes) }
        }

        /// Type by type: count, checksum and sources.
        var totalsText: [String] {
            totals.types.sorted { $0.key < $1.key }.map {
                "\($0.key) \($0.value.count) \($0.value.checksum) \($0.value.sourceCountsJSON)"
            }
        }
    }

    /// Every element through its ``HealthRecord``, fingerprinted as it is added.
    static func viaRecords(_ url: URL) throws -> Prepared {
        var prepared = Prepared()
        var builder = PreparedBatch.Builder(rowsPerBatch: 1 << 20)
        _ = try AppleExportReader(url: url).read { element in
            builder.append(HealthRecord(exportElement: element), countingIn: &prepared.totals)
        }
        prepared.add(builder.take())
        return prepared
    }

    /// As an import prepares them: in place where it can, in small batches fingerprinted after.
    static func asImported(_ url: URL, rowsPerBatch: Int = 7) throws -> Prepared {
        var prepared = Prepared()
        var encoder = ExportRowEncoder(rowsPerBatch: rowsPerBatch)
        var fingerprinter = ExportRowFingerprinter()
        func handOver() {
            var batch = encoder.take()
            fingerprinter.finish(&batch, countingIn: &prepared.totals)
            prepared.add(batch)
        }
        _ = try AppleExportReader(url: url).read(
            recordsInPlace: { record in
                prepared.readInPlace += 1
                encoder.append(inPlace: record)
                if encoder.isFull { handOver() }
            },
            { element in
                encoder.append(element)
                if encoder.isFull { handOver() }
            })
        handOver()
        return prepared
    }

    /// Prepares every element of `url` both ways; returns how many rows were compared and how
    /// many of them were read in place.
    @discardableResult
    static func compareBothWays(_ url: URL) throws -> (rows: Int, inPlace: Int) {
        let expected = try viaRecords(url)
        let imported = try asImported(url)
        #expect(imported.rows.count == expected.rows.count)
        for (index, (row, wanted)) in zip(imported.rows, expected.rows).enumerated() where row != wanted {
            Issue.record("row \(index) differs: \(row) against \(wanted)")
            break
        }
        #expect(imported.totalsText == expected.totalsText)
        return (expected.rows.count, imported.readInPlace)
    }

    @Test(arguments: FixtureFiles.topLevelCounts.keys.sorted())
    func realExportRecordsArePreparedAsTheirRecordsAre(_ fixture: String) throws {
        #expect(try Self.compareBothWays(FixtureFiles.url(fixture)).rows > 0)
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
        let compared = try Self.compareBothWays(synthetic)
        #expect(compared.rows > 2_000)
        #expect(compared.inPlace > compared.rows / 2)

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
        // The first record has an attribute and a child no field models: it comes as an element.
        #expect(try Self.compareBothWays(handWritten) == (rows: 3, inPlace: 2))
    }

    /// Records read in place whose bytes need care: characters to escape in a lone entry, a
    /// device that is not an `HKDevice` description and one with nothing after its address, empty
    /// attributes, several entries to sort (dates and text beyond ASCII among them), an entry
    /// without a key and one without a value; and beside them records that are not of the shape
    /// (beats, an unreadable date, a child of another name), which come as elements.
    @Test func recordsReadInPlaceArePreparedAsTheirRecordsAre() throws {
        let folder = try FixtureFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("in-place.xml")
        let start = "startDate=\"2000-01-01 09:30:00 +0100\" endDate=\"2000-01-01 09:31:00 +0100\""
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Test User’s Watch" unit="" value="" \(start)>
              <MetadataEntry key="quote &quot; tab&#9;" value="back \\ slash &amp; line&#10;end"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" \
            device="a writer&apos;s own words" sourceVersion="1" unit="count" value="12" \(start)/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" \
            device="&lt;&lt;HKDevice: 0x2&gt;&gt;" unit="count" value="1e3" \(start)/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Test Scale" unit="kg" value="65.5" \(start)>
              <MetadataEntry key="Modified Date" value="2000-01-02 08:00:00 -0700"/>
              <MetadataEntry key="HKWasUserEntered" value="1"/>
              <MetadataEntry key="Ünïcode" value="Ä"/>
              <MetadataEntry key="Modified Date" value="Z"/>
              <MetadataEntry value="no key"/>
              <MetadataEntry key="no value"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Test Scale" unit="kg" value="65.5" \(start)>
              <MetadataEntry key="HKTimeZone" value="2000-01-02 08:00:00 -0700"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Test User’s Watch" \
            unit="ms" value="40" \(start)>
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="60" time="9:30:01.00 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" \
            startDate="2000-02-30 09:30:00 +0100" endDate="2000-01-01 09:31:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" \(start)>
              <Note text="kept"/>
             </Record>
            </HealthData>
            """.utf8
        ).write(to: url)
        #expect(try Self.compareBothWays(url) == (rows: 8, inPlace: 5))
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
        let prepared = try Self.asImported(url)
        #expect(prepared.readInPlace == 1)
        #expect(prepared.rows.count == 1)
        #expect(prepared.rows.first?.values[7] == nil)
        #expect(prepared.rows.first?.values[8] == nil)
        #expect(prepared.rows.first?.numbers.contains("numericValue: Optional(3.0)") == true)
    }
}

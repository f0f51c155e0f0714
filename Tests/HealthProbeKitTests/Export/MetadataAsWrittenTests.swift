import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Metadata dates come back out as the export wrote them, offsets kept, while the record's
/// identity ignores the offset: the same instant written another way is the same record.
@Suite("Export: metadata as written")
struct MetadataAsWrittenTests {
    static func export(modified: String, workoutModified: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <ExportDate value="2000-01-05 09:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" creationDate="2000-01-01 09:00:00 +0100" startDate="2000-01-01 09:00:00 +0100" endDate="2000-01-01 09:00:00 +0100" value="70">
          <MetadataEntry key="Modified Date" value="\(modified)"/>
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" creationDate="2000-01-01 10:00:00 +0100" startDate="2000-01-01 10:00:00 +0100" endDate="2000-01-01 10:05:00 +0100" value="120">
          <MetadataEntry key="HKWasUserEntered" value="0"/>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" creationDate="2000-01-02 08:00:00 +0100" startDate="2000-01-02 07:00:00 +0100" endDate="2000-01-02 07:30:00 +0100">
          <MetadataEntry key="Modified Date" value="\(workoutModified)"/>
         </Workout>
        </HealthData>
        """
    }

    @Test func datesKeepTheirOffsetAndTheRecordKeepsItsIdentity() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let first = support.folder.appendingPathComponent("first.xml")
        try Self.export(modified: "2000-01-01 09:30:00 +0100", workoutModified: "2000-01-02 09:00:00 -0500")
            .write(to: first, atomically: true, encoding: .utf8)
        _ = try support.check(first, in: store)
        let lines = try support.jsonLines(store)
        func metadata(_ type: String) -> [String: Any]? {
            lines.first { $0["type"] as? String == type }?["metadata"] as? [String: Any]
        }
        #expect(
            metadata("HKQuantityTypeIdentifierBodyMass")?["Modified Date"] as? String == "2000-01-01 09:30:00 +0100")
        #expect(metadata("HKQuantityTypeIdentifierBodyMass")?["HKWasUserEntered"] as? String == "1")
        #expect(metadata(HealthRecord.workoutType)?["Modified Date"] as? String == "2000-01-02 09:00:00 -0500")
        #expect(metadata("HKQuantityTypeIdentifierStepCount")?["HKWasUserEntered"] as? String == "0")
        let csv = try String(contentsOfFile: try support.runExport(store, .csv).path, encoding: .utf8)
        #expect(csv.contains("2000-01-01 09:30:00 +0100"))

        // The same instants written in UTC: the same records, nothing new, nothing gone.
        let second = support.folder.appendingPathComponent("second.xml")
        try Self.export(modified: "2000-01-01 08:30:00 +0000", workoutModified: "2000-01-02 14:00:00 +0000")
            .write(to: second, atomically: true, encoding: .utf8)
        let capture = try support.check(second, in: store).capture
        #expect(capture.new == 0)
        #expect(capture.gone == 0)
    }
}

import Foundation
import TestSupport

/// Synthetic workouts with GPX routes and clinical records with FHIR documents, as an export
/// lays them out beside its main XML. Coordinates near 0°, dates in 2000.
enum ReferencedFileFixture {
    /// A workout whose route is the file at `route` (`/workout-routes/…`).
    static func workout(route: String, start: String = "2000-01-01 08:00:00 +0000") -> String {
        """
        <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
        sourceName="\(MiniExport.watch)" sourceVersion="10.1" creationDate="2000-01-01 08:31:00 +0000" \
        startDate="\(start)" endDate="2000-01-01 08:30:00 +0000"><WorkoutRoute sourceName="\(MiniExport.watch)" \
        sourceVersion="10.1" creationDate="2000-01-01 08:31:00 +0000" startDate="\(start)" \
        endDate="2000-01-01 08:30:00 +0000"><FileReference path="\(route)"/></WorkoutRoute></Workout>
        """
    }

    /// A GPX file of `points` points a second apart from 08:00:00 UTC, as Apple writes one:
    /// `<metadata>` holds the export's own time, `<name>` a local time. `keep` chooses points.
    static func gpx(points: Int, exportedAt: String = "2000-01-05T10:00:00Z", keep: (Int) -> Bool = { _ in true })
        -> String
    {
        let body = (0..<points).filter(keep).map { index in
            let time = String(format: "2000-01-01T08:%02d:%02dZ", index / 60, index % 60)
            let lat = String(format: "%.6f", 0.001 + Double(index) * 0.000013)
            let lon = String(format: "%.6f", 0.002 + Double(index) * 0.000021)
            return """
                <trkpt lon="\(lon)" lat="\(lat)"><ele>\(String(format: "%.6f", 4 + Double(index % 7) * 0.01))</ele>\
                <time>\(time)</time><extensions><speed>2.\(index % 10)00000</speed><course>90.000000</course>\
                <hAcc>8.000000</hAcc><vAcc>6.000000</vAcc></extensions></trkpt>
                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><time>\(exportedAt)</time></metadata>
              <trk><name>Route 2000-01-01 8:00am</name><trkseg>
            \(body.joined(separator: "\n"))
              </trkseg></trk>
            </gpx>

            """
    }

    /// A clinical record whose document is `/clinical-records/\(file)`.
    static func clinicalRecord(file: String, identifier: String, type: String = "Observation") -> String {
        """
        <ClinicalRecord type="\(type)" identifier="\(identifier)" sourceName="Test Hospital" \
        sourceURL="https://fhir.example.invalid/\(type)/\(identifier)" fhirVersion="4.0.1" \
        receivedDate="2000-01-01 09:00:00 +0000" resourceFilePath="/clinical-records/\(file)"/>
        """
    }

    /// A lab result as FHIR JSON; `compact` writes it on one line with keys in another order.
    static func observation(id: String, value: Double, compact: Bool = false) -> String {
        if compact {
            return
                #"{"valueQuantity":{"value":\#(value),"unit":"mg/dL"},"status":"final","resourceType":"Observation","id":"\#(id)"}"#
        }
        return """
            {
              "resourceType": "Observation",
              "id": "\(id)",
              "status": "final",
              "valueQuantity": { "unit": "mg/dL", "value": \(value) }
            }
            """
    }

    /// Writes an export folder: `export.xml`, and each file at its path.
    static func folder(_ export: MiniExport, files: [String: String], in parent: URL, named name: String) throws -> URL
    {
        let folder = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try export.write(to: folder, name: "export.xml")
        for (path, text) in files {
            let url = folder.appendingPathComponent(String(path.drop { $0 == "/" }))
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }
}

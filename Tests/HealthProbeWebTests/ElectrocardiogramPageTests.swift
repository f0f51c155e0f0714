import AppleHealthExport
import Foundation
import HTTPTypes
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// A lost ECG recording's detail draws its trace, on the server, once values are revealed — and
/// not before.
@Suite("Dashboard: ECG recordings")
struct ElectrocardiogramPageTests: Sendable {
    @Test func aLostRecordingIsDrawnOnlyOnceValuesAreRevealed() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("archive.sqlite").path
        let store = try ArchiveStore.open(at: path)
        var before = SyntheticExportOptions(elementCount: 600, seed: 9)
        before.electrocardiograms = 3
        var after = before
        after.electrocardiograms = 1
        after.exportDate = 946_684_800 + 30 * 86_400
        for (name, options) in [("before.zip", before), ("after.zip", after)] {
            let url = folder.appendingPathComponent(name)
            try SyntheticExportGenerator(options: options).writeZip(to: url)
            _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
        }
        let anomaly = try #require(
            try store.fetchAnomalies().first {
                $0.type == .silentDeletion && $0.sampleType == ElectrocardiogramElement.sampleType
            })
        #expect(anomaly.recordCount == 2)

        let (hidden, body) = try await DetailPages.beforeAndAfterReveal(
            anomaly.id, archivePath: path, folder: folder)
        #expect(hidden.contains("Reveal values to draw what changed"))
        #expect(!hidden.contains("<polyline"))
        // What to do about it: the archive still holds them.
        #expect(hidden.contains("The archive still holds them with their voltages"))
        #expect(hidden.contains("<code>healthprobe export --include-gone --format apple-health"))

        // Both lost recordings, 30 s at 512 Hz each, drawn from the voltages the archive kept.
        #expect(body.components(separatedBy: "<svg class=\"ecg\"").count == 3)
        #expect(body.contains("data-voltages=\"15360\""))
        #expect(body.contains("<title id=\"ecg-"))
        #expect(body.contains("30 s at 512 Hz"))
        #expect(body.contains("classified Sinus Rhythm"))
        let points = try #require(body.components(separatedBy: "points=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(points.split(separator: " ").count == 2_880)
        #expect(!body.contains("Reveal values to draw what changed"))
    }
}

/// An anomaly's detail page as the dashboard serves it, before and after Reveal.
enum DetailPages {
    static func beforeAndAfterReveal(_ id: Int64, archivePath: String, folder: URL) async throws -> (
        hidden: String, revealed: String
    ) {
        let configuration = WebConfiguration(archivePath: archivePath, uploadDirectory: folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let headers: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        var form = headers
        form[.contentType] = "application/x-www-form-urlencoded"
        return try await app.test(.router) { [form] client in
            let page = try await client.execute(uri: "/anomalies/\(id)", method: .get, headers: headers)
            let revealed = try await client.execute(
                uri: "/anomalies/\(id)/reveal", method: .post, headers: form,
                body: ByteBuffer(string: "csrf=\(configuration.csrfToken)"))
            #expect(page.status == .ok && revealed.status == .ok)
            return (String(buffer: page.body), String(buffer: revealed.body))
        }
    }
}

/// A route that lost points is drawn before and after, the lost points marked, once values are
/// revealed — and not before: a route says where someone was.
@Suite("Dashboard: routes")
struct RoutePageTests: Sendable {
    static let route = "/workout-routes/route_2000-01-01_8.30am.gpx"

    static func export(in folder: URL, named name: String, exported: String, points: Int) throws -> URL {
        let root = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        let watch = "Test User’s Apple Watch"
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US"><ExportDate value="\(exported)"/>
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="\(watch)" sourceVersion="10.1" creationDate="2000-01-01 08:31:00 +0000" \
            startDate="2000-01-01 08:00:00 +0000" endDate="2000-01-01 08:30:00 +0000"><WorkoutRoute \
            sourceName="\(watch)" sourceVersion="10.1" startDate="2000-01-01 08:00:00 +0000" \
            endDate="2000-01-01 08:30:00 +0000"><FileReference path="\(route)"/></WorkoutRoute></Workout>
            </HealthData>
            """
        try Data(xml.utf8).write(to: root.appendingPathComponent("export.xml"))
        let track = (0..<points).map { (index: Int) -> String in
            let lon: Double = 0.002 + Double(index) * 0.000021
            let lat: Double = 0.001 + sin(Double(index) / 9) * 0.0004
            let time = String(format: "2000-01-01T08:%02d:%02dZ", index / 60, index % 60)
            return String(format: "<trkpt lon=\"%.6f\" lat=\"%.6f\">", lon, lat) + "<time>\(time)</time></trkpt>"
        }
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">\
            <trk><trkseg>\(track.joined())</trkseg></trk></gpx>
            """
        try Data(gpx.utf8).write(to: root.appendingPathComponent(String(route.dropFirst())))
        return root
    }

    @Test func aShortenedRouteIsDrawnOnlyOnceValuesAreRevealed() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("archive.sqlite").path
        let store = try ArchiveStore.open(at: path)
        for (name, exported, points) in [
            ("first", "2000-01-03 12:00:00 +0000", 90), ("second", "2000-01-05 12:00:00 +0000", 50),
        ] {
            let url = try Self.export(in: folder, named: name, exported: exported, points: points)
            _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
        }
        let anomaly = try #require(try store.fetchAnomalies().first { $0.type == .routeChanged })
        let (hidden, body) = try await DetailPages.beforeAndAfterReveal(
            anomaly.id, archivePath: path, folder: folder)
        #expect(hidden.contains("Reveal values to draw what changed"))
        #expect(!hidden.contains("<svg class=\"route\""))
        #expect(hidden.contains("The route as it was is kept"))

        #expect(body.contains("<svg class=\"route\""))
        #expect(body.contains("data-lost=\"40\""))
        #expect(body.contains("data-kind=\"before\" data-points=\"90\""))
        #expect(body.contains("data-kind=\"after\" data-points=\"50\""))
        #expect(body.components(separatedBy: "<circle class=\"lost\"").count == 41)
        // Positions are scaled into the drawing: no coordinate is written out.
        let after = body.components(separatedBy: "<svg class=\"route\"").dropFirst().first ?? ""
        let drawing = after.components(separatedBy: "</svg>").first ?? ""
        #expect(drawing.contains("<polyline") && !drawing.contains("0.00"))
    }
}

import AppleHealthExport
import Foundation
import HTTPTypes
import HealthProbeKit
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
            _ = try ExportImporter(store: store).importExport(ExportReader(url: url))
        }
        let anomaly = try #require(
            try store.fetchAnomalies().first {
                $0.type == .silentDeletion && $0.sampleType == ElectrocardiogramElement.sampleType
            })
        #expect(anomaly.recordCount == 2)

        let configuration = WebConfiguration(archivePath: path, uploadDirectory: folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let headers: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        var form = headers
        form[.contentType] = "application/x-www-form-urlencoded"
        try await app.test(.router) { [form] client in
            let page = try await client.execute(uri: "/anomalies/\(anomaly.id)", method: .get, headers: headers)
            let hidden = String(buffer: page.body)
            #expect(hidden.contains("reveal values to draw their traces"))
            #expect(!hidden.contains("<polyline"))
            // What to do about it: the archive still holds them.
            #expect(hidden.contains("The archive still holds them with their voltages"))
            #expect(hidden.contains("--include-gone --format apple-health"))

            let revealed = try await client.execute(
                uri: "/anomalies/\(anomaly.id)/reveal", method: .post, headers: form,
                body: ByteBuffer(string: "csrf=\(configuration.csrfToken)"))
            let body = String(buffer: revealed.body)
            #expect(revealed.status == .ok)
            // Both lost recordings, 30 s at 512 Hz each, drawn from the voltages the archive kept.
            #expect(body.components(separatedBy: "<svg class=\"ecg\"").count == 3)
            #expect(body.contains("data-voltages=\"15360\""))
            #expect(body.contains("<title id=\"ecg-"))
            #expect(body.contains("30 s at 512 Hz"))
            #expect(body.contains("classified Sinus Rhythm"))
            let points = try #require(
                body.components(separatedBy: "points=\"").dropFirst().first?.prefix { $0 != "\"" })
            #expect(points.split(separator: " ").count == 2_880)
            #expect(!body.contains("reveal values to draw their traces"))
        }
    }
}

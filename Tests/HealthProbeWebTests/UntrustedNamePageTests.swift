import AppleHealthExport
import Foundation
import HTTPTypes
import HealthProbeArchive
import HealthProbeKit
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// A source name holding a right-to-left override reaches a page as text that cannot reorder
/// what follows it: the override shown as an escape, the name isolated (`<bdi>`), and the
/// Markdown report carries no markup from it (issue 53).
@Suite("Dashboard: a hostile name")
struct UntrustedNamePageTests {
    @Test func anOverrideInANameIsShownAndIsolated() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("archive.sqlite").path
        let export = folder.appendingPathComponent("export.xml")
        let record = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Evil&#x202E;ppA &lt;img src=x onerror=alert(1)&gt;" \
            unit="count" creationDate="2000-01-01 10:00:00 +0000" startDate="2000-01-01 10:00:00 +0000" \
            endDate="2000-01-01 10:05:00 +0000" value="16"/>

            """
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2000-01-02 10:00:00 +0000"/>
        \(String(repeating: record, count: 3))</HealthData>

        """.write(to: export, atomically: true, encoding: .utf8)
        _ = try AppleExportImporter(store: try ArchiveStore.open(at: path)).importExport(AppleExportReader(url: export))
        let configuration = WebConfiguration(archivePath: path, uploadDirectory: folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        try await app.test(.router) { client in
            let day = String(
                buffer: try await client.execute(uri: "/day?date=2000-01-01", method: .get, headers: cookie).body)
            #expect(!day.unicodeScalars.contains("\u{202E}"))
            #expect(day.contains("<bdi>Evil\\u{202E}ppA &lt;img src=x onerror=alert(1)&gt;</bdi>"), "\(day)")
            let detail = String(
                buffer: try await client.execute(uri: "/anomalies/1", method: .get, headers: cookie).body)
            #expect(!detail.unicodeScalars.contains("\u{202E}"))
            #expect(detail.contains("<td data-label=\"Source\"><bdi>Evil\\u{202E}ppA &lt;img"), "\(detail)")
            let report = String(
                buffer: try await client.execute(uri: "/anomalies/1/report.md", method: .get, headers: cookie).body)
            // Every '<' escaped: nothing in it renders as HTML.
            #expect(!report.replacingOccurrences(of: "\\<", with: "").contains("<"), "\(report)")
            #expect(report.contains("\\<img src=x onerror=alert(1)\\>"), "\(report)")
        }
    }
}

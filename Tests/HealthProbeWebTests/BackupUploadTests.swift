import Foundation
import HTTPTypes
import HealthProbeKit
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// Check Now given an iPhone's Health database after an export of the same phone: the result
/// page tells what vanished, what was deleted in Health and what is new, with or without the
/// sources file beside it.
@Suite("Dashboard: Check Now with a Health database")
struct BackupUploadTests: Sendable {
    let folder: URL
    let archivePath: String
    let configuration: WebConfiguration
    let uploads: URL
    let health: URL

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
        archivePath = folder.appendingPathComponent("archive.sqlite").path
        uploads = folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let baseline = PairedHealthData.baseline()
        let export = folder.appendingPathComponent("export.xml")
        try baseline.writeExport(to: export)
        _ = try ExportCheck(input: export, archivePath: archivePath).run(into: try ArchiveStore.open(at: archivePath))
        var changed = baseline
        changed.vanish(PairedHealthData.heartRate, count: 30)
        changed.delete(PairedHealthData.steps, count: 20, at: 948_888_000)
        changed.addHeartRates(15)
        health = folder.appendingPathComponent("Health")
        try changed.writeDatabase(to: health)
        configuration = WebConfiguration(
            archivePath: archivePath, maxUploadBytes: 8 << 20, uploadDirectory: uploads, format: .utc)
    }

    /// The form as a browser sends it: the CSRF field, then each file part.
    func upload(_ client: some TestClientProtocol, parts: [(field: String, name: String, data: Data)]) async throws
        -> TestResponse
    {
        let boundary = "----HealthProbeTestBoundary"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n".utf8)
        body += Data("\(configuration.csrfToken)\r\n".utf8)
        for part in parts {
            body += Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.field)\"; filename=\"\(part.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            body += part.data + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return try await client.execute(uri: "/check", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    func result(_ client: some TestClientProtocol, _ location: String) async throws -> String {
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        for _ in 0..<600 {
            let page = String(buffer: try await client.execute(uri: location, method: .get, headers: cookie).body)
            if !page.contains("http-equiv=\"refresh\"") { return page }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        Issue.record("the check did not finish")
        return ""
    }

    @Test(arguments: [true, false])
    func aHealthDatabaseIsCheckedToItsResult(withSources: Bool) async throws {
        var files = [
            (
                "export", "healthdb_secure.sqlite",
                try Data(contentsOf: health.appendingPathComponent("healthdb_secure.sqlite"))
            )
        ]
        if withSources {
            files.append(
                ("sources", "healthdb.sqlite", try Data(contentsOf: health.appendingPathComponent("healthdb.sqlite"))))
        }
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let parts = files
        try await app.test(.router) { client in
            let response = try await upload(client, parts: parts)
            #expect(response.status == .seeOther)
            let page = try await result(client, try #require(response.headers[.location]))
            #expect(page.contains("Capture 2: 523 records, 15 new, 508 unchanged, 50 gone"), "\(page)")
            #expect(
                page.contains(
                    "deleted in Health, as the database&#39;s deletion records say: 20 step count on 2000-01-26")
                    || page.contains(
                        "deleted in Health, as the database's deletion records say: 20 step count on 2000-01-26")
            )
            #expect(page.contains("30 heart rate records vanished"))
        }
        let capture = try #require(try ArchiveStore.open(at: archivePath, creating: false).fetchCapture(id: 2))
        #expect(capture.origin == .backup)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty)
    }
}

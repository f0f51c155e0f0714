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
        _ = try ArchiveCheck.open(export.path, archivePath: archivePath).run(
            into: try ArchiveStore.open(at: archivePath))
        let changed = baseline.withVanishedDeletedAndNew(deletedAt: 948_888_000)
        health = folder.appendingPathComponent("Health")
        try changed.writeDatabase(to: health)
        configuration = WebConfiguration(
            archivePath: archivePath, maxUploadBytes: 8 << 20, uploadDirectory: uploads, format: .utc)
    }

    @Test(arguments: [true, false])
    func aHealthDatabaseIsCheckedToItsResult(withSources: Bool) async throws {
        let form = CheckNowForm(sessionToken: configuration.sessionToken)
        var files = [
            CheckNowForm.Part(
                fileName: "healthdb_secure.sqlite",
                data: try Data(contentsOf: health.appendingPathComponent("healthdb_secure.sqlite")))
        ]
        if withSources {
            files.append(
                .init(
                    field: "sources", fileName: "healthdb.sqlite",
                    data: try Data(contentsOf: health.appendingPathComponent("healthdb.sqlite"))))
        }
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let parts = files
        try await app.test(.router) { client in
            let response = try await form.post(client, parts, csrf: configuration.csrfToken)
            #expect(response.status == .seeOther)
            let page = try await form.result(client, try #require(response.headers[.location]))
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

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

/// The Settings page's "Each day's figures": the time zone of days and a type's source order,
/// saved as `healthprobe settings` saves them, a wrong value refused with the form kept.
@Suite("Dashboard: how days are counted")
struct DaySettingsPageTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"

    @Test func theZoneAndASourceOrderAreSavedAndAWrongOneIsRefused() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("archive.sqlite").path
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        _ = try AppleExportImporter(store: try ArchiveStore.open(at: path)).importExport(AppleExportReader(url: export))
        let configuration = WebConfiguration(archivePath: path, uploadDirectory: folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let csrf = "csrf=\(configuration.csrfToken)"
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        var form = cookie
        form[.contentType] = "application/x-www-form-urlencoded"
        let headers = form
        let store = try ArchiveStore.open(at: path, creating: false)
        try await app.test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/settings", method: .get, headers: cookie).body)
            #expect(page.contains("Each day's figures"))
            #expect(page.contains("<option value=\"\(Self.steps)\">Step count (Band App, "))
            #expect(page.contains("Health’s default for every type."))
            // Until a threshold is saved, `check` follows none: the page says so.
            #expect(page.contains("exits 0 whatever it finds until a threshold is saved"))

            func post(_ uri: String, _ form: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: form))
            }
            let order = "Band App\r\niPhone-TESTDEVICE".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(
                try await post("/settings/source-order", "\(csrf)&type=\(Self.steps)&order=\(order)").status
                    == .seeOther)
            #expect(try store.chosenSourceOrders()[Self.steps] == ["Band App", "iPhone-TESTDEVICE"])
            let saved = String(buffer: try await client.execute(uri: "/settings", method: .get, headers: cookie).body)
            #expect(saved.contains("Step count: <bdi>Band App › iPhone-TESTDEVICE</bdi>"))

            let misspelt = try await post("/settings/source-order", "\(csrf)&type=\(Self.steps)&order=Band%20Ap")
            #expect(misspelt.status == .unprocessableContent)
            let refusal = String(buffer: misspelt.body)
            #expect(refusal.contains("“Band Ap” has written no step count: its sources are Band App, "))
            #expect(refusal.contains(">Band Ap</textarea>"))
            #expect(try store.chosenSourceOrders()[Self.steps] == ["Band App", "iPhone-TESTDEVICE"])

            #expect(try await post("/settings/source-order", "\(csrf)&type=\(Self.steps)&order=").status == .seeOther)
            #expect(try store.chosenSourceOrders().isEmpty)

            #expect(try await post("/settings/days", "\(csrf)&zone=Asia%2FTokyo").status == .seeOther)
            #expect(try store.chosenDayZone() == "Asia/Tokyo")
            let unknown = try await post("/settings/days", "\(csrf)&zone=Mars%2FOlympus")
            #expect(unknown.status == .unprocessableContent)
            #expect(String(buffer: unknown.body).contains("Unknown time zone “Mars/Olympus”"))
            #expect(try store.chosenDayZone() == "Asia/Tokyo")
            #expect(try await post("/settings/days", "\(csrf)&zone=").status == .seeOther)
            #expect(try store.chosenDayZone() == nil)
            #expect(try await post("/settings/days", "zone=Asia%2FTokyo").status == .forbidden)
        }
        let trail = try store.fetchAuditEntries().map(\.message)
        #expect(trail.contains("Source order of \(Self.steps) set (2 sources)"))
        #expect(trail.contains("Source order of \(Self.steps): Health's default"))
    }
}

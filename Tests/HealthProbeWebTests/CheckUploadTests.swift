import AppleHealthExport
import Foundation
import HTTPTypes
import HealthProbeKit
import HealthProbeSimulation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// Check Now through the router: the upload's guard, a refused file, a checked export.
@Suite("Dashboard: Check Now")
struct CheckUploadTests: Sendable {
    let archive: AuditedArchive
    let configuration: WebConfiguration
    let uploads: URL

    init() throws {
        archive = try AuditedArchive(records: 600)
        uploads = archive.folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        configuration = WebConfiguration(
            archivePath: archive.path, maxUploadBytes: 1 << 20, uploadDirectory: uploads, format: .utc)
    }

    var app: some ApplicationProtocol {
        get throws { Application(router: try DashboardServer(configuration: configuration).makeRouter()) }
    }

    /// A form as a browser sends it: the CSRF field first (when given), then the file.
    func upload(
        _ client: some TestClientProtocol, file: Data, named name: String, csrf: String?
    ) async throws -> TestResponse {
        try await CheckNowForm(sessionToken: configuration.sessionToken).post(
            client, [.init(fileName: name, data: file)], csrf: csrf)
    }

    func result(_ client: some TestClientProtocol, _ location: String) async throws -> String {
        try await CheckNowForm(sessionToken: configuration.sessionToken).result(client, location)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: uploads.path)
    }

    @Test func anUploadWithoutTheFormTokenIsRefusedAndLeavesNothing() async throws {
        try await app.test(.router) { client in
            let response = try await upload(client, file: Data("<HealthData/>".utf8), named: "export.xml", csrf: nil)
            #expect(response.status == .forbidden)
            let forged = try await upload(client, file: Data("<HealthData/>".utf8), named: "export.xml", csrf: "0")
            #expect(forged.status == .forbidden)
        }
        #expect(try leftovers().isEmpty)
        #expect(try archive.open().fetchOverview().captures == 2)
    }

    @Test func aFileOverTheCapIsRefusedAndLeavesNothing() async throws {
        try await app.test(.router) { client in
            let response = try await upload(
                client, file: Data(repeating: 0x41, count: 2 << 20), named: "export.zip", csrf: configuration.csrfToken)
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains("The file is too large"))
        }
        #expect(try leftovers().isEmpty)
    }

    @Test func aFileThatIsNoExportGetsTheCommandLinesWordsAndChangesNothing() async throws {
        let before = try ArchiveInspection.digest(archive.path, excluding: ["auditEntry"])
        let notAnExport = Data("name,value\nTest User,1\n".utf8)
        let local = archive.folder.appendingPathComponent("notes.csv")
        try notAnExport.write(to: local)
        let words = Self.refusal(of: local)
        #expect(!words.isEmpty)
        try await app.test(.router) { client in
            let response = try await upload(
                client, file: notAnExport, named: "notes.csv", csrf: configuration.csrfToken)
            #expect(response.status == .seeOther)
            let page = try await result(client, try #require(response.headers[.location]))
            #expect(page.contains("The check did not complete"))
            #expect(page.contains("it was left as it was"))
            #expect(Self.unescaped(page).contains(words), "the page shows: \(words)")
        }
        #expect(try ArchiveInspection.digest(archive.path, excluding: ["auditEntry"]) == before)
        #expect(try archive.open().fetchAuditEntries().last?.event == "inputRefused")
        #expect(try leftovers().isEmpty, "the uploaded file is deleted after its check")
    }

    @Test func anExportIsCheckedToItsResult() async throws {
        let export = try archive.writeExport(
            named: "export.zip", SyntheticExportOptions(elementCount: 600, seed: 7, omitEveryNth: 10))
        try await app.test(.router) { client in
            let response = try await upload(
                client, file: try Data(contentsOf: export), named: "export.zip", csrf: configuration.csrfToken)
            #expect(response.status == .seeOther)
            let page = try await result(client, try #require(response.headers[.location]))
            let capture = try #require(try archive.open().fetchOverview().lastCapture)
            #expect(capture.id == 3)
            #expect(page.contains("Capture 3: \(capture.records) records"))
            #expect(page.contains("\(capture.gone) gone"))
        }
        #expect(try leftovers().isEmpty)
    }

    /// Another person's export is refused as the command line refuses it, and the page offers
    /// what `--allow-unrelated` does: the same file again, checked all the same.
    @Test func anUnrelatedExportIsRefusedWithTheChoiceToCheckItAllTheSame() async throws {
        let other = try archive.writeExport(named: "other.zip", SyntheticExportOptions(elementCount: 600, seed: 11))
        let before = try ArchiveInspection.digest(archive.path, excluding: ["auditEntry"])
        let form = CheckNowForm(sessionToken: configuration.sessionToken)
        let file = CheckNowForm.Part(fileName: "other.zip", data: try Data(contentsOf: other))
        try await app.test(.router) { client in
            let refused = try await form.post(client, [file], csrf: configuration.csrfToken)
            let page = try await result(client, try #require(refused.headers[.location]))
            #expect(page.contains("The check did not complete"))
            #expect(Self.unescaped(page).contains("looks like someone else's export"), "the refusal's own words")
            #expect(page.contains("<input type=\"hidden\" name=\"allow\" value=\"unrelated\">"))
            #expect(page.contains("Check it all the same"))
            #expect(try ArchiveInspection.digest(archive.path, excluding: ["auditEntry"]) == before)

            let again = try await form.post(
                client, [file], csrf: configuration.csrfToken, fields: [("allow", "unrelated")])
            let checked = try await result(client, try #require(again.headers[.location]))
            #expect(checked.contains("Capture 3:"), "\(checked)")
        }
        let store = try archive.open()
        #expect(try store.fetchOverview().captures == 3)
        #expect(try store.fetchAnomalies().contains { $0.type == .unrelatedCapture && $0.captureId == 3 })
        #expect(try leftovers().isEmpty)
    }

    /// One check at a time: a file uploaded while another is checked is not taken for it, and the
    /// page says it was not checked and not kept.
    @Test func anUploadWhileACheckRunsIsToldItWasNotChecked() async throws {
        let big = try archive.writeExport(named: "big.zip", SyntheticExportOptions(elementCount: 15_000, seed: 7))
        let small = try archive.writeExport(named: "small.zip", SyntheticExportOptions(elementCount: 600, seed: 7))
        try await app.test(.router) { client in
            let first = try await upload(
                client, file: try Data(contentsOf: big), named: "big.zip", csrf: configuration.csrfToken)
            let running = try #require(first.headers[.location])
            let second = try await upload(
                client, file: try Data(contentsOf: small), named: "small.zip", csrf: configuration.csrfToken)
            #expect(second.status == .seeOther)
            let location = try #require(second.headers[.location])
            #expect(location == "/check?refused=busy")
            let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
            let page = String(buffer: try await client.execute(uri: location, method: .get, headers: cookie).body)
            if page.contains("A check is already running") {
                #expect(page.contains("href=\"\(running)\""))
            }
            #expect(page.contains("Your file was not checked"))
            _ = try await result(client, running)
        }
        #expect(try archive.open().fetchCaptures().count == 3)
        #expect(try leftovers().isEmpty)
    }

    /// What `healthprobe check` says of a file it refuses.
    static func refusal(of file: URL) -> String {
        do {
            _ = try AppleExportReader(url: file)
            return ""
        } catch {
            return error.localizedDescription
        }
    }

    static func unescaped(_ html: String) -> String {
        [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].reduce(html) {
            $0.replacingOccurrences(of: $1.0, with: $1.1)
        }
    }
}

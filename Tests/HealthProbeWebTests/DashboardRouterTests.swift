import Foundation
import HTTPTypes
import HealthProbeArchive
import HealthProbeKit
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// The dashboard's guard and pages through Hummingbird's router test client.
@Suite("Dashboard: routes and their guard")
struct DashboardRouterTests: Sendable {
    let archive: AuditedArchive
    let configuration: WebConfiguration

    init() throws {
        archive = try AuditedArchive()
        configuration = WebConfiguration(archivePath: archive.path, uploadDirectory: archive.folder, format: .utc)
    }

    var app: some ApplicationProtocol {
        get throws { Application(router: try DashboardServer(configuration: configuration).makeRouter()) }
    }

    var cookie: HTTPFields { [.cookie: "healthprobe_session=\(configuration.sessionToken)"] }

    /// Posts a form as the browser would, with the session cookie (and an Origin when given).
    func post(
        _ client: some TestClientProtocol, _ uri: String, _ form: String, origin: String? = nil
    ) async throws -> TestResponse {
        var headers = cookie
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let origin { headers[.origin] = origin }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: form))
    }

    /// A detail about more records than a page holds links to the rest, and revealing values
    /// stays on the page it was asked from.
    @Test func anAnomalysRecordsArePagedWithLinks() async throws {
        let big = try AuditedArchive(records: 12_000)
        let configuration = WebConfiguration(archivePath: big.path, uploadDirectory: big.folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let anomaly = try #require(try big.open().fetchAnomalies().first { $0.recordCount > 50 })
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        try await app.test(.router) { client in
            let first = String(
                buffer: try await client.execute(uri: "/anomalies/\(anomaly.id)", method: .get, headers: cookie).body)
            #expect(first.contains("Records (1–50 of "))
            #expect(first.contains("href=\"/anomalies/\(anomaly.id)?page=2#records\""))
            #expect(!first.contains("rel=\"prev\""))
            let second = String(
                buffer: try await client.execute(uri: "/anomalies/\(anomaly.id)?page=2", method: .get, headers: cookie)
                    .body)
            #expect(second.contains("Records (51–"))
            #expect(second.contains("href=\"/anomalies/\(anomaly.id)?page=1#records\""))
            #expect(second.contains("action=\"/anomalies/\(anomaly.id)/reveal?page=2\""))
        }
    }

    @Test func withoutTheLaunchTokenNothingIsServed() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .unauthorized)
                let page = String(buffer: response.body)
                #expect(page.contains("Open the address HealthProbe printed"))
                #expect(!page.contains(configuration.csrfToken), "a refused visitor never sees the form token")
            }
            try await client.execute(uri: "/?token=\(String(repeating: "0", count: 64))", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(
                uri: "/", method: .get, headers: [.cookie: "healthprobe_session=\(configuration.launchToken)"]
            ) { response in
                #expect(response.status == .unauthorized, "the launch token is not a session")
            }
        }
    }

    @Test func theLaunchTokenBecomesAStrictHttpOnlyCookie() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/anomalies?token=\(configuration.launchToken)", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/anomalies")
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("healthprobe_session=\(configuration.sessionToken)"))
                #expect(setCookie.contains("HttpOnly"))
                #expect(setCookie.contains("SameSite=Strict"))
            }
            try await client.execute(uri: "/", method: .get, headers: cookie) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src") == false)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(
                    String(buffer: response.body).contains("Needs a look")
                        || String(buffer: response.body).contains("Critical"))
                // The cards speak as `status` does, one or many.
                let body = String(buffer: response.body)
                let found = try archive.open().fetchOverview().anomaliesAllTime
                #expect(body.contains("<p>records held</p>"))
                #expect(
                    body.contains(found == 1 ? "<p>anomaly found, all time</p>" : "<p>anomalies found, all time</p>"))
            }
        }
    }

    /// The printed address is good for one browser: a second one presenting it gets no session and
    /// a page saying what to do; the browser that opened it may reopen it.
    @Test func theLaunchTokenIsGoodForOneBrowser() async throws {
        try await app.test(.router) { client in
            let launch = "/?token=\(configuration.launchToken)"
            try await client.execute(uri: launch, method: .get) { response in
                #expect(response.headers[.setCookie] != nil)
            }
            try await client.execute(uri: launch, method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.setCookie] == nil)
                let page = String(buffer: response.body)
                #expect(page.contains("This address has been used"))
                #expect(page.contains("start it again for a new address"))
            }
            try await client.execute(uri: "/audit?token=\(configuration.launchToken)", method: .get, headers: cookie) {
                response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/audit")
            }
        }
    }

    @Test func aForeignHostIsRefusedBeforeAnyRoute() {
        #expect(SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "127.0.0.1:8080"))
        #expect(SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "localhost"))
        #expect(SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "[::1]:80"))
        #expect(!SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "evil.example:8080"))
        #expect(!SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "localhost.evil.example"))
        #expect(!SecurityMiddleware<BasicRequestContext>.isLoopback(authority: "127.0.0.1.nip.io"))
        #expect(!SecurityMiddleware<BasicRequestContext>.isLoopback(authority: nil))
    }

    @Test func aPostWithoutItsCSRFTokenChangesNothing() async throws {
        let anomaly = try #require(try archive.open().fetchAnomalies().first)
        let resolve = "/anomalies/\(anomaly.id)/resolve"
        try await app.test(.router) { client in
            #expect(try await post(client, resolve, "return=/").status == .forbidden)
            let foreign = try await post(
                client, resolve, "csrf=\(configuration.csrfToken)&return=/", origin: "http://evil.example")
            #expect(foreign.status == .forbidden)
            #expect(try archive.open().fetchAnomaly(id: anomaly.id)?.resolved == false)
            let resolved = try await post(client, resolve, "csrf=\(configuration.csrfToken)&return=%2Fanomalies")
            #expect(resolved.status == .seeOther)
            #expect(resolved.headers[.location] == "/anomalies")
            #expect(try archive.open().fetchAnomaly(id: anomaly.id)?.resolved == true)
            // Resolved by mistake: the detail offers Reopen, which needs its token too.
            try await client.execute(uri: "/anomalies/\(anomaly.id)", method: .get, headers: cookie) { response in
                #expect(String(buffer: response.body).contains("action=\"/anomalies/\(anomaly.id)/reopen\""))
            }
            let reopen = "/anomalies/\(anomaly.id)/reopen"
            #expect(try await post(client, reopen, "return=/").status == .forbidden)
            #expect(try await post(client, reopen, "csrf=\(configuration.csrfToken)&return=%2F").status == .seeOther)
            #expect(try archive.open().fetchAnomaly(id: anomaly.id)?.resolved == false)
        }
    }

    @Test func archiveStatusBacksTheArchiveUpBesideIt() async throws {
        try await app.test(.router) { client in
            #expect(try await post(client, "/archive/backup", "").status == .forbidden)
            let made = try await post(client, "/archive/backup", "csrf=\(configuration.csrfToken)")
            #expect(made.status == .seeOther)
            #expect(made.headers[.location] == "/archive?backup=done")
            try await client.execute(uri: "/archive?backup=done", method: .get, headers: cookie) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("Back up the archive"))
                #expect(page.contains("Backed up 2 complete captures to \(archive.folder.path)/backups/archive-"))
                #expect(page.contains("verified intact."))
            }
        }
        let backups = try FileManager.default.contentsOfDirectory(
            atPath: archive.folder.appendingPathComponent("backups").path)
        #expect(backups.count == 1)
        let copy = archive.folder.appendingPathComponent("backups/\(backups[0])").path
        #expect(try ArchiveInspection.digest(copy) == ArchiveInspection.digest(archive.path))
    }

    @Test func unknownPagesAndMethodsGetPages() async throws {
        try await app.test(.router) { client in
            for uri in ["/nothing-here", "/anomalies/999999", "/anomalies/abc", "/check/unknown"] {
                try await client.execute(uri: uri, method: .get, headers: cookie) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                    #expect(String(buffer: response.body).contains("Not found"))
                }
            }
            try await client.execute(uri: "/settings", method: .put, headers: cookie) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
                #expect(String(buffer: response.body).contains("Not allowed"))
            }
        }
    }

    @Test func aSettingOutOfRangeShowsTheFormAgainWithTheMessage() async throws {
        let form = "csrf=\(configuration.csrfToken)&threshold=info&type=HKQuantityTypeIdentifierStepCount"
        try await app.test(.router) { client in
            let refused = try await post(client, "/settings", form + "&frequency=5")
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("Check frequency must be every 2, 6, 12 or 24 hours."))
            #expect(try archive.open().fetchSettings() == .defaults)
            #expect(try await post(client, "/settings", form + "&frequency=12").status == .seeOther)
            let saved = try archive.open().fetchSettings()
            #expect(saved.checkFrequency == .every12Hours)
            #expect(saved.monitoredTypes == ["HKQuantityTypeIdentifierStepCount"])
            #expect(saved.alertThreshold == .info)
        }
    }

    /// Before the first check, Settings shows the defaults; a bad form makes no archive, a good
    /// one makes it with the settings for the first check to use.
    @Test func settingsCanBeChosenBeforeTheFirstCheck() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let path = folder.appendingPathComponent("new.sqlite").path
        let configuration = WebConfiguration(archivePath: path, uploadDirectory: folder, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let form = "csrf=\(configuration.csrfToken)&threshold=critical&type=HKQuantityTypeIdentifierHeartRate"
        try await app.test(.router) { client in
            let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
            try await client.execute(uri: "/settings", method: .get, headers: cookie) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("these are the defaults"))
            }
            var headers = cookie
            headers[.contentType] = "application/x-www-form-urlencoded"
            let refused = try await client.execute(
                uri: "/settings", method: .post, headers: headers, body: ByteBuffer(string: form + "&frequency=5"))
            #expect(refused.status == .unprocessableContent)
            #expect(!FileManager.default.fileExists(atPath: path), "a refused form makes no archive")
            let saved = try await client.execute(
                uri: "/settings", method: .post, headers: headers, body: ByteBuffer(string: form + "&frequency=6"))
            #expect(saved.status == .seeOther)
            let settings = try ArchiveStore.open(at: path, creating: false).fetchSettings()
            #expect(settings.checkFrequency == .every6Hours)
            #expect(settings.alertThreshold == .critical)
            #expect(settings.monitoredTypes == ["HKQuantityTypeIdentifierHeartRate"])
        }
    }

    /// A day's page gives the archive's day figures — the figures every face gives — with each
    /// source's part, links to the days around it, and a clear refusal of a date it cannot read.
    @Test func aDaysPageShowsTheDayFiguresWithTheirSources() async throws {
        let store = try archive.open()
        let lost = try #require(try store.fetchAnomalies().first { $0.type == .silentDeletion })
        let day = try #require(try store.fetchAnomalyDays(id: lost.id, zone: try store.dayZone())).first
        let figures = try store.dayFigures(
            types: try store.status().types.map(\.type), days: day...day, zone: try store.dayZone())
        #expect(!figures.isEmpty)
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/day?date=\(UTCText.day(day))", method: .get, headers: cookie)
            #expect(page.status == .ok)
            let body = String(buffer: page.body)
            for figure in figures {
                #expect(body.contains("data-type=\"\(figure.type)\""), "\(figure.type)")
                for part in figure.sources { #expect(body.contains(part.source)) }
            }
            #expect(body.contains("href=\"/day?date=\(UTCText.day(day - 1))\""))
            #expect(body.contains("href=\"/day?date=\(UTCText.day(day + 1))\""))
            let one = String(
                buffer: try await client.execute(
                    uri: "/day?date=\(UTCText.day(day))&type=\(lost.sampleType)", method: .get, headers: cookie
                ).body)
            #expect(one.components(separatedBy: "<section class=\"card\"").count == 2)
            let bad = try await client.execute(uri: "/day?date=yesterday", method: .get, headers: cookie)
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains("by its date, as /day?date=2000-01-31"))
        }
    }

    @Test func noPageHoldsAHealthValueButARevealedDetail() async throws {
        let store = try archive.open()
        let anomaly = try #require(try store.fetchAnomalies().first { $0.type == .duplicate })
        let values = Set(try store.fetchAnomalyRecords(id: anomaly.id, limit: 50).records.compactMap(\.value))
        #expect(!values.isEmpty)
        let marked = values.flatMap { ["<code>\($0) ", "<code>\($0)</code>"] }
        try await app.test(.router) { client in
            for uri in [
                "/", "/anomalies", "/anomalies?resolved=1", "/anomalies/\(anomaly.id)", "/audit", "/archive",
                "/settings",
                "/anomalies/\(anomaly.id)/report.md", "/audit.json",
            ] {
                try await client.execute(uri: uri, method: .get, headers: cookie) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let body = String(buffer: response.body)
                    #expect(!marked.contains { body.contains($0) }, "\(uri) shows a value")
                    #expect(!body.contains("count/min</code>"), "\(uri) shows a value with its unit")
                }
            }
            let revealed = try await post(client, "/anomalies/\(anomaly.id)/reveal", "csrf=\(configuration.csrfToken)")
            #expect(revealed.status == .ok)
            let body = String(buffer: revealed.body)
            #expect(marked.contains { body.contains($0) }, "the revealed detail shows the values")
        }
    }
}

/// Pages while a first check fills an empty archive: they wait for it, they do not block on it.
@Suite("Dashboard: during a first check")
struct FirstCheckPageTests {
    @Test func pagesSayTheFirstCheckIsRunningAndShowOnceItEnds() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let configuration = WebConfiguration(
            archivePath: folder.appendingPathComponent("archive.sqlite").path, format: .utc)
        let access = ArchiveAccess(path: configuration.archivePath)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter(access: access))
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        try await app.test(.router) { client in
            let before = try await client.execute(uri: "/anomalies", method: .get, headers: cookie)
            #expect(before.status == .notFound)
            #expect(String(buffer: before.body).contains("No archive yet"))
            _ = try await access.forCheck()
            let during = try await client.execute(uri: "/anomalies", method: .get, headers: cookie)
            #expect(during.status == .serviceUnavailable)
            #expect(during.headers[.retryAfter] == "5")
            #expect(String(buffer: during.body).contains("The first check is running"))
            await access.checkEnded()
            let after = try await client.execute(uri: "/anomalies", method: .get, headers: cookie)
            #expect(after.status == .ok)
        }
    }

    /// Before any check: one panel saying what to do, one Check Now, the terminal's command as
    /// code, and none of the empty figures.
    @Test func theDashboardOfNoArchiveSaysWhatToDoOnce() async throws {
        let folder = try FixtureFiles.temporaryFolder()
        let configuration = WebConfiguration(
            archivePath: folder.appendingPathComponent("archive.sqlite").path, format: .utc)
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        try await app.test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/", method: .get, headers: cookie).body)
            #expect(page.components(separatedBy: "No check yet").count == 2)
            #expect(page.components(separatedBy: ">Check Now</a>").count == 2)
            #expect(page.contains("<code>healthprobe check export.zip</code>"))
            #expect(!page.contains("`"))
            #expect(!page.contains("samples tracked"))
        }
    }
}

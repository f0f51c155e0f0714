import Foundation
import HTTPTypes
import HealthProbeArchive
import HealthProbeKit
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import HealthProbeWeb

/// Where each loss happened and what changed between captures, as the pages draw them: the
/// marks' and rows' data attributes add up to what the checks reported.
@Suite("Dashboard: charts and captures")
struct ChartAndCapturePageTests: Sendable {
    let archive: AuditedArchive
    let configuration: WebConfiguration

    init() throws {
        archive = try AuditedArchive()
        configuration = WebConfiguration(archivePath: archive.path, uploadDirectory: archive.folder, format: .utc)
    }

    func page(_ uri: String) async throws -> (status: HTTPResponse.Status, body: String) {
        let app = Application(router: try DashboardServer(configuration: configuration).makeRouter())
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(configuration.sessionToken)"]
        return try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get, headers: cookie)
            return (response.status, String(buffer: response.body))
        }
    }

    /// The sum of `data-count` over the marks of one kind.
    static func marked(_ kind: String, in page: String) -> Int {
        page.matches(of: /data-kind="([a-z]+)" data-count="([0-9]+)"/).filter { $0.1 == kind }.reduce(0) {
            $0 + Int($1.2)!
        }
    }

    static func attributes(_ name: String, in page: String) -> [Int] {
        page.matches(of: try! Regex("\(name)=\"([0-9]+)\"")).compactMap { match in
            (match.output[1].substring).flatMap { Int($0) }
        }
    }

    @Test func eachAnomalysDetailDrawsExactlyItsRecordsWhereTheyHappened() async throws {
        let anomalies = try archive.open().fetchAnomalies()
        let kinds: [AnomalyType: String] = [.silentDeletion: "vanished", .duplicate: "duplicate"]
        var drawn = 0
        for anomaly in anomalies {
            guard let kind = kinds[anomaly.type] else { continue }
            let detail = try await page("/anomalies/\(anomaly.id)")
            #expect(detail.body.contains("Where it happened"))
            #expect(Self.marked(kind, in: detail.body) == anomaly.recordCount, "anomaly \(anomaly.id)")
            // The dashboard over the same period shows them too, among any others of the type.
            let link = try #require(detail.body.firstMatch(of: /href="(\/\?type=[^"]+)"/)?.1)
            let dashboard = try await page(String(link).replacingOccurrences(of: "&amp;", with: "&"))
            #expect(dashboard.status == .ok)
            #expect(Self.marked(kind, in: dashboard.body) >= anomaly.recordCount)
            drawn += 1
        }
        #expect(drawn >= 2)
    }

    @Test func theDashboardTakesAPeriodAndRefusesABadOne() async throws {
        let store = try archive.open()
        let type = try #require(try store.fetchOverview().types.first?.type)
        let span = try #require(
            try store.fetchDailySeries(DailySeriesRequest(type: type, zone: try store.dayZone(), maximumMarks: 366))
                .dataSpan)
        let all = try await page("/?type=\(type)&from=\(span.firstDate)&to=\(span.lastDate)")
        #expect(all.body.contains("aria-current=\"true\">All</a>"))
        #expect(
            Self.marked("held", in: all.body) + Self.marked("duplicate", in: all.body)
                + Self.marked("backfilled", in: all.body) == (try store.fetchOverview().types.first?.records))
        let bad = try await page("/?type=\(type)&from=2000-02-30&to=2000-03-01")
        #expect(bad.status == .badRequest)
        #expect(bad.body.contains("Choose a period as two dates"))
    }

    @Test func capturesAndWhatChangedEqualWhatTheChecksReported() async throws {
        let captures = try archive.open().fetchCaptures()
        let (first, second) = (captures[0], captures[1])
        let list = try await page("/captures")
        #expect(Self.attributes("data-records", in: list.body) == [second.records, first.records])
        let day = UTCText.day(of: try #require(second.exportDate))
        #expect(list.body.contains("data-export-day=\"\(day)\""))
        let compared = try await page("/captures/compare?from=\(first.id)&to=\(second.id)")
        #expect(Self.attributes("data-new", in: compared.body).reduce(0, +) == second.new)
        #expect(Self.attributes("data-gone", in: compared.body).reduce(0, +) == second.gone)
        for anomaly in try archive.open().fetchAnomalies() {
            #expect(compared.body.contains("href=\"/anomalies/\(anomaly.id)\""))
        }
        // The command to copy names this archive, not the default one.
        let shown = compared.body.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(
            of: "&#x27;", with: "'")
        #expect(shown.contains("healthprobe export --archive '\(archive.path)' --as-of-capture \(first.id)"))
        let lost = try #require(try archive.open().fetchAnomalies().first { $0.type == .silentDeletion })
        let byDay = try await page(
            "/captures/compare?from=\(first.id)&to=\(second.id)&type=\(lost.sampleType)")
        #expect(Self.attributes("data-gone", in: byDay.body).reduce(0, +) >= lost.recordCount)
        #expect(byDay.body.contains("data-day=\""))
        let unknown = try await page("/captures/compare?from=\(first.id)&to=99")
        #expect(unknown.status == .notFound)
    }

    @Test func aCaptureSetAsideIsListedWithWhyAndComparedWithNothing() async throws {
        let store = try archive.open()
        let second = try #require(try store.fetchCaptures().last)
        let withdrawn = try store.fetchAnomalies().filter { $0.captureId == second.id }
        #expect(!withdrawn.isEmpty)
        try store.setCaptureAside(second.id, reason: "not my export")

        let list = try await page("/captures")
        #expect(list.body.contains("Set aside: not my export. Compared with nothing; its anomalies are withdrawn."))
        #expect(!list.body.contains("to=\(second.id)\""))
        #expect(!list.body.contains("<option value=\"\(second.id)\""))
        let compared = try await page("/captures/compare?from=1&to=\(second.id)")
        #expect(compared.status == .notFound)
        let anomalies = try await page("/anomalies")
        for anomaly in withdrawn { #expect(!anomalies.body.contains("href=\"/anomalies/\(anomaly.id)\"")) }
        let detail = try await page("/anomalies/\(try #require(withdrawn.first).id)")
        #expect(
            detail.body.contains("data-role=\"state\">Withdrawn with capture \(second.id), set aside: not my export<"))
    }
}

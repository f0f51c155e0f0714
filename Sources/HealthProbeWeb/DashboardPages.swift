import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird
import NIOConcurrencyHelpers
import NIOPosix

/// The dashboard's pages: each reads a screen's state through the archive's service interface
/// and renders it. Archive work runs on NIO's thread pool, never on an event loop.
struct DashboardPages: Sendable {
    let configuration: WebConfiguration
    let renderer: PageRenderer
    let access: ArchiveAccess
    let jobs: CheckJobs
    /// Set while an integrity check runs, so that repeated clicks start one.
    let integrityRunning = NIOLockedValueBox(false)
    /// Set while a backup is written; then what the last one did, for the Archive Status page.
    let backupRunning = NIOLockedValueBox(false)
    let lastBackup = NIOLockedValueBox<String?>(nil)

    /// The zone every time on a page is written in: the archive's day zone (`settings
    /// --time-zone`), as the command line writes them, read again whenever a page reads the
    /// archive; this computer's until there is an archive.
    let zoneFormat = NIOLockedValueBox<ScreenFormat?>(nil)
    var format: ScreenFormat { zoneFormat.withLockedValue { $0 } ?? configuration.format }

    /// Runs blocking archive work off the event loops; nil when there is no archive to use yet.
    func withArchive<T: Sendable>(_ body: @escaping @Sendable (ArchiveStore) throws -> T) async throws -> T? {
        guard let store = try await access.forReading() else { return nil }
        let zoneFormat = zoneFormat
        return try await NIOThreadPool.singleton.runIfActive {
            let zone = try store.dayZone()
            zoneFormat.withLockedValue { $0 = ScreenFormat(timeZone: zone) }
            return try body(store)
        }
    }

    /// ``format`` as the archive's settings are now, for a page that writes times before it
    /// reads the archive.
    func dayFormat() async throws -> ScreenFormat {
        _ = try await withArchive { _ in () }
        return format
    }

    func dashboard(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let type = query["type"].map(String.init)
        var period: DayRange?
        if query["from"] != nil || query["to"] != nil {
            guard let from = query["from"], let to = query["to"],
                let range = DayRange(from: String(from), to: String(to))
            else {
                return renderer.error(
                    .badRequest, title: "That period cannot be shown",
                    message: "Choose a period as two dates, such as 2000-01-01 to 2000-03-01, at most a century apart.",
                    link: ("/", "Dashboard"))
            }
            period = range
        }
        let format = try await dayFormat()
        let running = jobs.runningJobID.map { "/check/\($0)" }
        let state = try await withArchive { [period] in
            try DashboardState.load(from: $0, chartType: type, period: period, format: format)
        }
        guard let state else {
            let empty = DashboardView.empty(checkRunning: running, format: format)
            return renderer.html("dashboard", title: "Dashboard", tab: .dashboard, body: empty)
        }
        return renderer.html(
            "dashboard", title: "Dashboard", tab: .dashboard,
            body: DashboardView(state, checkRunning: running, format: format))
    }

    /// A page about a missing thing, in the dashboard's frame.
    func notFound(_ what: String = "There is no such page.") -> Response {
        renderer.error(.notFound, title: "Not found", message: what, link: ("/", "Dashboard"))
    }

    /// What a page says when it has no archive to read: a first check is filling it (come back
    /// in a moment), or there is none yet (how to make one).
    func noArchive() async -> Response {
        if await access.isFillingFirstCapture {
            var response = renderer.error(
                .serviceUnavailable, title: "The first check is running",
                message: "This page shows once the first check has stored its capture.",
                link: jobs.runningJobID.map { ("/check/\($0)", "Follow the check") })
            response.headers[.retryAfter] = "5"
            return response
        }
        return renderer.error(
            .notFound, title: "No archive yet",
            message: DashboardView.firstCheckHint + " Or run healthprobe check export.zip in a terminal.",
            link: ("/check", "Check Now"))
    }

    func forbidden() -> Response {
        renderer.error(
            .forbidden, title: "The form has expired",
            message: "This form was not sent by this launch of the dashboard. Go back, reload the page and try again.")
    }

    /// After a POST: to a local path only.
    func redirect(to path: String?) -> Response {
        let target = path.flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil } ?? "/"
        return Response(status: .seeOther, headers: [.location: target])
    }
}

extension DashboardView {
    static func empty(checkRunning: String?, format: ScreenFormat) -> DashboardView {
        let state = DashboardState.empty(
            status: checkRunning == nil ? .neverChecked : .unknown(reason: "The first check is running."),
            hasArchive: checkRunning != nil)
        return DashboardView(state, checkRunning: checkRunning, format: format)
    }
}

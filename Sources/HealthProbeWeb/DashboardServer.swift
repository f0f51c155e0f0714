import Foundation
import HealthProbeKit
import Hummingbird
import Logging
import NIOCore

/// `healthprobe serve`: the five screens on 127.0.0.1 only, behind the launch token.
public struct DashboardServer: Sendable {
    public let configuration: WebConfiguration

    public init(configuration: WebConfiguration) {
        self.configuration = configuration
    }

    /// Every page's path, whatever its method.
    static let routes = [
        "/", "/static/style.css", "/anomalies", "/anomalies/{id}", "/anomalies/{id}/reveal", "/anomalies/{id}/report.md",
        "/anomalies/{id}/resolve", "/audit", "/audit.json", "/archive", "/archive/integrity", "/settings",
        "/settings/delete", "/check", "/check/{id}",
    ]

    /// The pages, behind the security guard and the HTML error pages.
    func makeRouter() throws -> Router<BasicRequestContext> {
        let pages = DashboardPages(
            configuration: configuration, renderer: try PageRenderer(csrf: configuration.csrfToken),
            access: ArchiveAccess(path: configuration.archivePath), jobs: CheckJobs())
        let router = Router()
        router.add(middleware: SecurityMiddleware(configuration: configuration))
        router.add(middleware: HTMLErrorMiddleware(renderer: pages.renderer, routes: Self.routes))
        router.get("/static/style.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: StyleSheet.css)))
        }
        router.get("/") { request, _ in try await pages.dashboard(request) }
        router.get("/anomalies") { request, _ in try await pages.anomalies(request) }
        router.get("/anomalies/{id}") { request, context in try await pages.anomaly(request, context: context, reveal: false) }
        router.post("/anomalies/{id}/reveal") { request, context in
            try await pages.anomaly(request, context: context, reveal: true)
        }
        router.get("/anomalies/{id}/report.md") { request, context in try await pages.anomalyReport(request, context: context) }
        router.post("/anomalies/{id}/resolve") { request, context in try await pages.resolve(request, context: context) }
        router.get("/audit") { request, _ in try await pages.audit(request) }
        router.get("/audit.json") { request, _ in try await pages.auditJSON(request) }
        router.get("/archive") { request, _ in try await pages.archive(request) }
        router.post("/archive/integrity") { request, _ in try await pages.checkIntegrity(request) }
        router.get("/settings") { request, _ in try await pages.settings(request) }
        router.post("/settings") { request, _ in try await pages.saveSettings(request) }
        router.get("/settings/delete") { request, _ in try await pages.confirmDeletion(request) }
        router.post("/settings/delete") { request, _ in try await pages.deleteAllAuditData(request) }
        router.get("/check") { request, _ in try await pages.checkForm(request) }
        router.post("/check") { request, _ in try await pages.startCheck(request) }
        router.get("/check/{id}") { request, context in try await pages.checkProgress(request, context: context) }
        return router
    }

    /// The application, bound to 127.0.0.1; `onReady` gets the launch URL once it listens.
    public func makeApplication(onReady: @escaping @Sendable (URL) -> Void) throws -> some ApplicationProtocol {
        var logger = Logger(label: "healthprobe.serve")
        logger.logLevel = .warning
        let token = configuration.launchToken
        return Application(
            router: try makeRouter(),
            configuration: ApplicationConfiguration(
                address: .hostname("127.0.0.1", port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                onReady(URL(string: "http://127.0.0.1:\(port)/?token=\(token)")!)
            }, logger: logger)
    }

    /// Serves until SIGINT or SIGTERM. A port another program holds is ``ServeError/portInUse(_:)``.
    public func run(onReady: @escaping @Sendable (URL) -> Void) async throws {
        do {
            try await makeApplication(onReady: onReady).runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServeError.portInUse(configuration.port)
        }
    }
}

/// Why the dashboard could not start.
public enum ServeError: LocalizedError, Equatable {
    case portInUse(Int)

    public var errorDescription: String? {
        switch self {
        case .portInUse(let port): "port \(port) is in use; choose another with --port"
        }
    }
}

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

    /// The pages, behind the security guard and the HTML error pages; `access` is the archive's
    /// (tests hand in one they have put in a given state).
    func makeRouter(access: ArchiveAccess? = nil) throws -> Router<BasicRequestContext> {
        let pages = DashboardPages(
            configuration: configuration, renderer: try PageRenderer(csrf: configuration.csrfToken),
            access: access ?? ArchiveAccess(path: configuration.archivePath), jobs: CheckJobs())
        let routes = pages.routes
        let router = Router()
        router.add(middleware: SecurityMiddleware(configuration: configuration, renderer: pages.renderer))
        router.add(
            middleware: HTMLErrorMiddleware(renderer: pages.renderer, routes: routes.map { ($0.method, $0.path) }))
        for route in routes {
            router.on(RouterPath(route.path), method: route.method, use: route.respond)
        }
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

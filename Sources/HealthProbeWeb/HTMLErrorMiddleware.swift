import Foundation
import HealthProbeArchive
import HealthProbeKit
import Hummingbird

/// Turns errors into pages: a route nobody serves is a 404 page, a method a route does not take
/// a 405 page, an archive that cannot be used a 503 page in the command line's words.
struct HTMLErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let renderer: PageRenderer
    /// Every route's method and path pattern (`/anomalies/{id}`), to tell a wrong method from a
    /// wrong path.
    let routes: [(HTTPRequest.Method, String)]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            switch error.status {
            case .notFound where routes.contains(where: { Self.path(request.uri.path, matches: $0.1) }):
                var response = renderer.error(
                    .methodNotAllowed, title: "Not allowed", message: "This page does not take that kind of request.",
                    link: ("/", "Dashboard"))
                response.headers[.allow] = routes.filter { Self.path(request.uri.path, matches: $0.1) }
                    .map(\.0.rawValue).joined(separator: ", ")
                return response
            case .notFound:
                return renderer.error(
                    .notFound, title: "Not found", message: "There is no such page.", link: ("/", "Dashboard"))
            case .methodNotAllowed:
                return renderer.error(
                    .methodNotAllowed, title: "Not allowed", message: "This page does not take that kind of request.",
                    link: ("/", "Dashboard"))
            default:
                return renderer.error(
                    error.status, title: "Request refused", message: error.body ?? "The request could not be served.")
            }
        } catch let error as ArchiveError {
            return renderer.error(
                .serviceUnavailable, title: "The archive cannot be used", message: error.localizedDescription)
        }
    }

    static func path(_ path: String, matches pattern: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let wanted = pattern.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == wanted.count
            && zip(parts, wanted).allSatisfy { $1.hasPrefix("{") || $0 == $1 }
    }
}

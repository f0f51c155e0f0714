import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The dashboard's guard, before any route: only loopback Host names (DNS rebinding), the launch
/// token exchanged once for an HttpOnly SameSite=Strict cookie (a second browser presenting it
/// is refused; the one holding the cookie may reopen it), the cookie on every later request,
/// a CSRF token and a loopback Origin on every POST, and headers that forbid scripts, framing,
/// sniffing and caching.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let configuration: WebConfiguration
    let renderer: PageRenderer
    /// Set when the launch token has been exchanged for a cookie: it is good for one browser.
    let launchTokenUsed = NIOLockedValueBox(false)
    static var cookieName: String { "healthprobe_session" }
    static var tokenParameter: String { "token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await guarded(request, context: context, next: next)
        Self.addSecurityHeaders(&response)
        return response
    }

    private func guarded(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard Self.isLoopback(authority: request.head.authority) else {
            return renderer.error(
                .forbidden, title: "Not allowed",
                message: "HealthProbe answers only at localhost or 127.0.0.1, the address it printed.")
        }
        if let token = request.uri.queryParameters[Self.tokenParameter[...]] {
            guard Secrets.matches(token, configuration.launchToken) else { return needsLaunchURL() }
            let redirect = Response(status: .seeOther, headers: [.location: request.uri.path])
            if hasSession(request) { return redirect }
            let firstUse = launchTokenUsed.withLockedValue { used in
                defer { used = true }
                return !used
            }
            guard firstUse else { return launchURLUsed() }
            var response = redirect
            response.setCookie(
                Cookie(
                    name: Self.cookieName, value: configuration.sessionToken, path: "/", httpOnly: true,
                    sameSite: .strict))
            return response
        }
        if request.method == .get && request.uri.path == StyleSheet.path { return try await next(request, context) }
        guard hasSession(request) else { return needsLaunchURL() }
        if request.method == .post {
            if let origin = request.headers[.origin], !Self.isLoopback(origin: origin) {
                return renderer.error(.forbidden, title: "Not allowed", message: "The form came from another site.")
            }
        }
        return try await next(request, context)
    }

    private func hasSession(_ request: Request) -> Bool {
        guard let cookie = request.cookies[Self.cookieName] else { return false }
        return Secrets.matches(cookie.value, configuration.sessionToken)
    }

    private func launchURLUsed() -> Response {
        renderer.error(
            .unauthorized, title: "This address has been used",
            message:
                "The address healthprobe serve printed opens the dashboard in one browser only, and it has been opened. Go back to the browser that opened it, or stop healthprobe serve and start it again for a new address."
        )
    }

    private func needsLaunchURL() -> Response {
        renderer.error(
            .unauthorized, title: "Open the address HealthProbe printed",
            message:
                "This dashboard opens only from the address that healthprobe serve printed in its terminal, which carries this launch's key."
        )
    }

    static func addSecurityHeaders(_ response: inout Response) {
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
    }

    /// `localhost`, `127.0.0.1` or `[::1]`, with any port — exact names only.
    static func isLoopback(authority: String?) -> Bool {
        guard let authority else { return false }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        return ["localhost", "127.0.0.1", "[::1]"].contains(host.lowercased())
    }

    static func isLoopback(origin: String) -> Bool {
        guard let url = URL(string: origin), url.scheme == "http", let host = url.host else { return false }
        let authority = host.contains(":") ? "[\(host)]" : host
        return isLoopback(authority: authority)
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}

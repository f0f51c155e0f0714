import Foundation
import HealthProbeArchive
import HealthProbeScreens
import Hummingbird
import Mustache

/// The five tabs, in the app's order.
enum Tab: String, CaseIterable, Sendable {
    case dashboard, anomalies, audit, archive, settings

    var label: String {
        switch self {
        case .dashboard: "Dashboard"
        case .anomalies: "Anomalies"
        case .audit: "Audit Trail"
        case .archive: "Archive Status"
        case .settings: "Settings"
        }
    }

    var path: String {
        switch self {
        case .dashboard: "/"
        case .anomalies: "/anomalies"
        case .audit: "/audit"
        case .archive: "/archive"
        case .settings: "/settings"
        }
    }

    var icon: String {
        switch self {
        case .dashboard: Icons.svg("gauge")
        case .anomalies: Icons.svg("exclamationmark.triangle.fill")
        case .audit: Icons.svg("clock.arrow.circlepath")
        case .archive: Icons.svg("externaldrive.fill.badge.checkmark")
        case .settings: Icons.svg("gearshape")
        }
    }
}

/// What the layout reads around a screen's own content.
struct Page<Body>: Sendable where Body: Sendable {
    struct TabLink: Sendable {
        var href: String
        var label: String
        var icon: String
        var current: Bool
    }

    var title: String
    var tabs: [TabLink]
    var brandIcon = Icons.svg("checkmark.shield.fill")
    var refreshSeconds: Int?
    var flash: String?
    var csrf: String
    var body: Body
}

/// Renders screens into HTML responses with the compiled templates.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let csrf: String

    init(csrf: String) throws {
        var library = MustacheLibrary()
        let templates: [(String, String)] = [
            ("layout", LayoutTemplates.layout), ("anomalyRow", LayoutTemplates.anomalyRow),
            ("error", LayoutTemplates.error), ("dashboard", ScreenTemplates.dashboard),
            ("anomalies", ScreenTemplates.anomalies), ("anomalyDetail", ScreenTemplates.anomalyDetail),
            ("audit", ScreenTemplates.audit), ("archive", ScreenTemplates.archive),
            ("settings", ScreenTemplates.settings), ("confirmDeletion", ScreenTemplates.confirmDeletion),
            ("check", ScreenTemplates.check), ("checkProgress", ScreenTemplates.checkProgress),
            ("captures", CaptureTemplates.captures), ("comparison", CaptureTemplates.comparison),
            ("day", DayTemplates.day),
        ]
        for (name, text) in templates { try library.register(text, named: name) }
        self.library = library
        self.csrf = csrf
    }

    func html<Body: Sendable>(
        _ template: String, title: String, tab: Tab?, body: Body, status: HTTPResponse.Status = .ok,
        refreshSeconds: Int? = nil, flash: String? = nil
    ) -> Response {
        let page = Page(
            title: title,
            tabs: Tab.allCases.map {
                Page<Body>.TabLink(href: $0.path, label: $0.label, icon: $0.icon, current: $0 == tab)
            }, refreshSeconds: refreshSeconds, flash: flash, csrf: csrf, body: body)
        let text = UntrustedText.page(library.render(page, withTemplate: template) ?? "")
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// An error page in the dashboard's frame.
    func error(_ status: HTTPResponse.Status, title: String, message: String, link: (String, String)? = nil) -> Response
    {
        html(
            "error", title: title, tab: nil,
            body: ErrorBody(heading: title, message: message, linkHref: link?.0, linkLabel: link?.1),
            status: status)
    }
}

/// What the error template reads.
struct ErrorBody: Sendable {
    var heading: String
    var message: String
    var linkHref: String?
    var linkLabel: String?
}

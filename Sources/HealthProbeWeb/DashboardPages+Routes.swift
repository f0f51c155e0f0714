import Hummingbird

/// One page: what it answers and how. The router and the 405 pages read the same table.
struct Route: Sendable {
    var method: HTTPRequest.Method
    var path: String
    var respond: @Sendable (Request, BasicRequestContext) async throws -> Response
}

extension DashboardPages {
    /// Every page the dashboard serves.
    var routes: [Route] {
        let pages = self
        return [
            Route(method: .get, path: StyleSheet.path) { _, _ in StyleSheet.response() },
            Route(method: .get, path: "/") { request, _ in try await pages.dashboard(request) },
            Route(method: .get, path: "/anomalies") { request, _ in try await pages.anomalies(request) },
            Route(method: .get, path: "/anomalies/{id}") { request, context in
                try await pages.anomaly(request, context: context, reveal: false)
            },
            Route(method: .post, path: "/anomalies/{id}/reveal") { request, context in
                try await pages.anomaly(request, context: context, reveal: true)
            },
            Route(method: .get, path: "/anomalies/{id}/report.md") { request, context in
                try await pages.anomalyReport(request, context: context)
            },
            Route(method: .post, path: "/anomalies/{id}/reopen") { request, context in
                try await pages.resolve(request, context: context, reopen: true)
            },
            Route(method: .post, path: "/anomalies/{id}/resolve") { request, context in
                try await pages.resolve(request, context: context)
            },
            Route(method: .get, path: "/audit") { request, _ in try await pages.audit(request) },
            Route(method: .get, path: "/audit.json") { _, _ in try await pages.auditJSON() },
            Route(method: .get, path: "/archive") { request, _ in try await pages.archive(request) },
            Route(method: .get, path: "/captures") { _, _ in try await pages.captures() },
            Route(method: .get, path: "/day") { request, _ in try await pages.day(request) },
            Route(method: .get, path: "/captures/compare") { request, _ in try await pages.compareCaptures(request) },
            Route(method: .post, path: "/archive/integrity") { request, _ in try await pages.checkIntegrity(request) },
            Route(method: .post, path: "/archive/backup") { request, _ in try await pages.backUp(request) },
            Route(method: .get, path: "/settings") { request, _ in try await pages.settings(request) },
            Route(method: .post, path: "/settings") { request, _ in try await pages.saveSettings(request) },
            Route(method: .post, path: "/settings/days") { request, _ in try await pages.saveDayZone(request) },
            Route(method: .post, path: "/settings/source-order") { request, _ in
                try await pages.saveSourceOrder(request)
            },
            Route(method: .get, path: "/settings/delete") { _, _ in try await pages.confirmDeletion() },
            Route(method: .post, path: "/settings/delete") { request, _ in try await pages.deleteAllAuditData(request)
            },
            Route(method: .get, path: "/check") { request, _ in pages.checkForm(request) },
            Route(method: .post, path: "/check") { request, _ in try await pages.startCheck(request) },
            Route(method: .get, path: "/check/{id}") { _, context in pages.checkProgress(context: context) },
        ]
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    struct AnomalyListView: Sendable {
        var severityChips: [ChipView]
        var severity: String?
        var typeOptions: [ChoiceView]
        var includeResolved: Bool
        var rows: [AnomalyRowView]
    }

    func anomalies(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let severity = query["severity"].flatMap { Severity(rawValue: String($0)) }
        let type = query["type"].flatMap { AnomalyType(rawValue: String($0)) }
        let includeResolved = query["resolved"] == "1"
        let filter = AnomalyListState.Filter(severity: severity, type: type, includeResolved: includeResolved)
        let format = try await dayFormat()
        guard let state = try await withArchive({ try AnomalyListState.load(from: $0, filter: filter, format: format) })
        else { return await noArchive() }
        let path = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        func href(_ severity: Severity?) -> String {
            var items = [(String, String)]()
            if let severity { items.append(("severity", severity.rawValue)) }
            if let type { items.append(("type", type.rawValue)) }
            if includeResolved { items.append(("resolved", "1")) }
            return "/anomalies" + (items.isEmpty ? "" : "?" + items.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
        }
        let chips =
            [ChipView(href: href(nil), label: "All", selected: severity == nil)]
            + Severity.allCases.reversed().map { level in
                ChipView(
                    href: href(level), label: "\(level.title) (\(state.openCounts[level] ?? 0) open)",
                    selected: level == severity)
            }
        let view = AnomalyListView(
            severityChips: chips, severity: severity?.rawValue,
            typeOptions: AnomalyType.allCases.map {
                ChoiceView(value: $0.rawValue, label: $0.title, selected: $0 == type)
            }, includeResolved: includeResolved, rows: state.rows.map { AnomalyRowView($0, returnPath: path) })
        return renderer.html("anomalies", title: "Anomalies", tab: .anomalies, body: view)
    }

    func anomaly(_ request: Request, context: some RequestContext, reveal: Bool) async throws -> Response {
        if reveal {
            guard try await FormFields.read(request).hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        }
        guard let id = context.parameters.get("id", as: Int64.self) else {
            return notFound("There is no such anomaly.")
        }
        let format = try await dayFormat()
        let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
        let loaded = try await withArchive {
            try AnomalyDetailState.load(from: $0, id: id, revealValues: reveal, page: page, format: format)
        }
        guard let state = loaded ?? nil else { return notFound("There is no anomaly \(id).") }
        return renderer.html(
            "anomalyDetail", title: "Anomaly \(id)", tab: .anomalies, body: AnomalyDetailView(state, format: format))
    }

    /// The Markdown report, without health values: what Share gives.
    func anomalyReport(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self) else { return notFound() }
        let report = try await withArchive { try $0.exportReport(anomalyID: id, includeValues: false, limit: 50) }
        guard let report = report ?? nil else { return notFound("There is no anomaly \(id).") }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/markdown; charset=utf-8",
                .contentDisposition: "attachment; filename=\"healthprobe-anomaly-\(id).md\"",
            ], body: ResponseBody(byteBuffer: ByteBuffer(string: report.markdown + "\n")))
    }

    /// Marks an anomaly resolved, or — `reopen` — open again.
    func resolve(_ request: Request, context: some RequestContext, reopen: Bool = false) async throws -> Response {
        let form = try await FormFields.read(request)
        guard form.hasValidCSRF(configuration.csrfToken) else { return forbidden() }
        guard let id = context.parameters.get("id", as: Int64.self) else { return notFound() }
        do {
            guard
                try await withArchive({
                    _ = reopen ? try $0.reopenAnomalies(ids: [id]) : try $0.resolveAnomalies(ids: [id])
                }) != nil
            else {
                return await noArchive()
            }
        } catch ArchiveError.unknownAnomalies {
            return notFound("There is no anomaly \(id).")
        }
        return redirect(to: form["return"])
    }
}

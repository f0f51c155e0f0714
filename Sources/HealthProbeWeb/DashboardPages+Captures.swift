import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    /// How the captures page names where a capture came from.
    static func originLabel(_ origin: CaptureOrigin) -> String {
        switch origin {
        case .export: "export"
        case .backup: "iPhone backup"
        case .healthkit: "iPhone (live)"
        }
    }

    struct CapturesView: Sendable {
        struct Row: Sendable {
            var id: Int64
            var origin: String
            var exportDay: String
            var records: String
            var recordsValue: Int
            var new: String
            var gone: String
            var anomalies: String
            /// What changed since the capture before it.
            var compareHref: String?
            /// Why the user set it aside (`healthprobe captures exclude`): it compares with nothing.
            var setAsideReason: String?
        }

        var rows: [Row]
        var fromChoices: [ChoiceView]
        var toChoices: [ChoiceView]
    }

    /// Every complete capture, newest first, each with what changed since the one before; those
    /// set aside among them, with why, and no comparison.
    func captures() async throws -> Response {
        let format = try await dayFormat()
        guard
            let loaded = try await withArchive({ store in
                (
                    try store.fetchCaptures(includingSetAside: true),
                    try store.fetchAnomalies(ArchiveStore.AnomalyFilter(includeResolved: true))
                )
            })
        else { return await noArchive() }
        let (captures, anomalies) = loaded
        let found = Dictionary(grouping: anomalies, by: \.captureId).mapValues(\.count)
        var previous: Int64?
        var rows: [CapturesView.Row] = []
        for capture in captures {
            let compared = capture.setAside == nil
            rows.append(
                CapturesView.Row(
                    id: capture.id, origin: Self.originLabel(capture.origin),
                    exportDay: UTCText.day(of: capture.exportDate ?? capture.startedAt),
                    records: format.count(capture.records), recordsValue: capture.records,
                    new: format.count(capture.new),
                    gone: format.count(capture.gone), anomalies: format.count(found[capture.id] ?? 0),
                    compareHref: compared ? previous.map { "/captures/compare?from=\($0)&to=\(capture.id)" } : nil,
                    setAsideReason: capture.setAside?.reason))
            if compared { previous = capture.id }
        }
        let ids = captures.filter { $0.setAside == nil }.map(\.id)
        func choices(selected: Int64?) -> [ChoiceView] {
            ids.reversed().map { ChoiceView(value: String($0), label: "capture \($0)", selected: $0 == selected) }
        }
        let view = CapturesView(
            rows: rows.reversed(), fromChoices: choices(selected: ids.dropLast().last ?? ids.first),
            toChoices: choices(selected: ids.last))
        return renderer.html("captures", title: "Captures", tab: .archive, body: view)
    }

    struct ComparisonView: Sendable {
        struct Row: Sendable {
            var label: String
            var new: String
            var gone: String
            /// `data-type` (or `data-day`), `data-new` and `data-gone`, for tools.
            var dataAttributes: String
            var dayHref: String?
            /// A day's row: that day's figures.
            var figuresHref: String?
        }

        var from: Int64
        var to: Int64
        var typeName: String?
        /// The zone whose local days a type's rows are.
        var timeZone: String
        var summary: String
        var differentOrigins: Bool
        var allTypesHref: String
        var rows: [Row]
        var anomalies: [AnomalyRowView]
        /// ` --archive 'PATH'`: the commands to copy name this archive, quoted for a shell.
        var archiveOption: String
    }

    /// `text` as one word of a POSIX shell: in single quotes, a quote in it closed and escaped.
    static func shellWord(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What changed between `from` and `to`, by sample type, or one type by day.
    func compareCaptures(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        guard let from = query["from"].flatMap({ Int64($0) }), let to = query["to"].flatMap({ Int64($0) }) else {
            return renderer.error(
                .badRequest, title: "Choose two captures",
                message: "Compare two captures by their numbers, as /captures/compare?from=1&to=2.",
                link: ("/captures", "Captures"))
        }
        let type = query["type"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let format = try await dayFormat()
        guard
            let loaded = try await withArchive({
                try $0.compareCaptures(from: from, to: to, byDayOf: type, zone: try $0.dayZone())
            })
        else {
            return await noArchive()
        }
        guard let comparison = loaded else {
            return notFound("Capture \(from) or capture \(to) is not a complete capture of this archive.")
        }
        let base = "/captures/compare?from=\(from)&to=\(to)"
        let rows = comparison.changes.map { change in
            let attribute = type == nil ? "data-type" : "data-day"
            let key = SVGChart.escape(change.key)
            return ComparisonView.Row(
                label: type == nil ? HealthKitCatalog.displayName(of: change.key) : change.key,
                new: format.count(change.new), gone: format.count(change.gone),
                dataAttributes: "\(attribute)=\"\(key)\" data-new=\"\(change.new)\" data-gone=\"\(change.gone)\"",
                dayHref: type == nil
                    ? base + "&type=" + ChartPeriodView.queryValue(change.key)
                    : nil,
                figuresHref: type.map { "/day?date=\(change.key)&type=" + ChartPeriodView.queryValue($0) })
        }
        let summary =
            "\(format.count(comparison.totalNew)) \(comparison.totalNew == 1 ? "record" : "records") new in capture \(to), "
            + "\(format.count(comparison.totalGone)) gone since capture \(from)."
        let view = ComparisonView(
            from: from, to: to, typeName: type.map(HealthKitCatalog.displayName),
            timeZone: comparison.timeZone ?? "", summary: summary,
            differentOrigins: comparison.differentOrigins, allTypesHref: base, rows: rows,
            anomalies: comparison.anomalies.map {
                AnomalyRowView(AnomalyRow($0, format: format), returnPath: base)
            }, archiveOption: " --archive " + Self.shellWord(configuration.archivePath))
        return renderer.html("comparison", title: "Capture \(from) → \(to)", tab: .archive, body: view)
    }
}

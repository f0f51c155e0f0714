import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// What the templates read: the screens' states with their words, roles and icons as text.
struct AnomalyRowView: Sendable {
    var id: Int64
    var severityRole: String
    var severityTitle: String
    var typeTitle: String
    var sampleTypeName: String
    var summary: String
    var detectedAt: String
    var resolved: Bool
    var accessibilityLabel: String
    var returnPath: String

    init(_ row: AnomalyRow, returnPath: String) {
        id = row.id
        severityRole = row.severity.role.rawValue
        severityTitle = row.severity.title
        typeTitle = row.typeTitle
        sampleTypeName = row.sampleTypeName
        summary = row.summary
        detectedAt = row.detectedAt
        resolved = row.resolved
        accessibilityLabel = row.accessibilityLabel
        self.returnPath = returnPath
    }
}

/// An option of a select, a radio group or a checkbox list.
struct ChoiceView: Sendable {
    var value: String
    var label: String
    var selected: Bool
}

/// A link of a filter bar.
struct ChipView: Sendable {
    var href: String
    var label: String
    var selected: Bool
}

struct DashboardView: Sendable {
    var hasArchive: Bool
    var firstCheckHint = Self.firstCheckHint

    /// The screens' hint, and on a computer the command line's way too.
    static let firstCheckHint = DashboardState.firstCheckHint
    var checkRunning: String?
    var statusRole: String
    var statusIcon: String
    var statusTitle: String
    var statusDetail: String
    var lastChecked: String?
    var lastCheckedRelative: String?
    var recordsTracked: String
    var anomaliesAllTime: String
    /// "records held" — the word `status` uses — and "anomalies found, all time", one or many.
    var recordsLabel: String
    var anomaliesLabel: String
    var typesLabel: String
    var openAnomalies: String
    /// The types the archive holds: what the charts offer (the phone's monitored types mean
    /// nothing to someone checking exports).
    var typesHeld: String
    var alerts: [AnomalyRowView]
    var threshold: String
    var hasChart: Bool
    var chartTypes: [ChoiceView]
    var recordsChart: String
    var period: ChartPeriodView?
    var hasTimeline: Bool
    var timelineChart: String

    init(_ state: DashboardState, checkRunning: String?, format: ScreenFormat) {
        hasArchive = state.hasArchive
        self.checkRunning = checkRunning
        statusRole = state.status.role.rawValue
        statusIcon = Icons.svg(state.status.symbol)
        statusTitle = state.status.title
        statusDetail = state.status.detail
        lastChecked = state.lastChecked
        lastCheckedRelative = state.lastCheckedRelative
        recordsTracked = format.count(state.recordsTracked)
        anomaliesAllTime = format.count(state.anomaliesAllTime)
        openAnomalies = format.count(state.openAnomalies)
        typesHeld = format.count(state.chartTypes.count)
        recordsLabel = state.recordsTracked == 1 ? "record held" : "records held"
        anomaliesLabel = state.anomaliesAllTime == 1 ? "anomaly found, all time" : "anomalies found, all time"
        typesLabel = state.chartTypes.count == 1 ? "type of record held" : "types of record held"
        alerts = state.recentAlerts.map { AnomalyRowView($0, returnPath: "/") }
        threshold = state.alertThreshold.rawValue
        hasChart = !(state.series?.days.isEmpty ?? true)
        chartTypes = state.chartTypes.map {
            ChoiceView(value: $0, label: HealthKitCatalog.displayName(of: $0), selected: $0 == state.chartType)
        }
        recordsChart =
            state.series.map {
                SVGChart.records($0, typeName: HealthKitCatalog.displayName(of: $0.type), format: format)
            } ?? ""
        period = state.series.flatMap(ChartPeriodView.init)
        hasTimeline = !state.timeline.days.isEmpty
        timelineChart = SVGChart.timeline(state.timeline, format: format)
    }
}

struct AnomalyDetailView: Sendable {
    var id: Int64
    var detailIcon = Icons.svg("doc.text.magnifyingglass")
    var heading: String
    var sampleTypeName: String
    var sampleType: String
    var severityRole: String
    var severityTitle: String
    var resolved: Bool
    /// "Open", "Resolved", "Recovered: …", "Withdrawn with capture 2, set aside: …".
    var anomalyState: String
    var summary: String
    var detectedAt: String
    var capture: String
    var recordCount: String
    var evidence: [AnomalyDetailState.EvidenceRow]
    var records: [AnomalyDetailState.RecordRow]
    var recordsShown: Int
    var recordTotal: String
    var valuesRevealed: Bool
    /// "51–100": the records of this page, when there is more than one page.
    var recordRange: String?
    var page: Int
    var previousHref: String?
    var nextHref: String?
    /// The sample type over the anomaly's days, with its own records marked.
    var chart: String?
    var chartFrom: String?
    var chartTo: String?
    var dashboardHref: String?
    /// ECG recordings drawn, once values are revealed.
    var traces: [TraceView]
    /// Routes before and after, once values are revealed.
    var routes: [TraceView]
    /// An anomaly about ECG recordings or routes whose values are not revealed: the page says
    /// how to see them drawn.
    var revealToDraw: Bool
    /// How to get lost data back, its commands as code (the report writes them in backticks).
    var recovery: [TextPart]

    struct TextPart: Sendable {
        var text: String
        var code: Bool
    }

    struct TraceView: Sendable {
        var svg: String
        var caption: String
    }

    init(_ state: AnomalyDetailState, format: ScreenFormat) {
        traces = state.traces.map {
            TraceView(svg: ECGTraceSVG.render($0, format: format), caption: ECGTraceSVG.caption($0, format: format))
        }
        routes = state.routes.map {
            TraceView(svg: RouteTraceSVG.render($0, format: format), caption: RouteTraceSVG.caption($0, format: format))
        }
        revealToDraw = (state.aboutElectrocardiograms || state.aboutRoutes) && !state.valuesRevealed
        recovery = (state.recovery ?? "").split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .compactMap { index, part in part.isEmpty ? nil : TextPart(text: String(part), code: index % 2 == 1) }
        id = state.row.id
        heading = state.row.heading
        sampleTypeName = state.row.sampleTypeName
        sampleType = state.row.sampleType
        severityRole = state.row.severity.role.rawValue
        severityTitle = state.row.severity.title
        resolved = state.row.resolved
        anomalyState = state.row.state
        summary = state.row.summary
        detectedAt = state.row.detectedAt
        capture = state.capture
        recordCount = format.count(state.row.recordCount)
        evidence = state.evidence
        records = state.records
        recordsShown = state.records.count
        recordTotal = format.count(state.recordTotal)
        valuesRevealed = state.valuesRevealed
        page = state.page
        if state.pageCount > 1, state.firstRecord > 0 {
            recordRange =
                "\(format.count(state.firstRecord))–\(format.count(state.firstRecord + state.records.count - 1))"
        }
        // Revealed values stay behind their form: the links lead to the pages without them.
        previousHref = state.page > 1 ? "/anomalies/\(state.row.id)?page=\(state.page - 1)#records" : nil
        nextHref = state.page < state.pageCount ? "/anomalies/\(state.row.id)?page=\(state.page + 1)#records" : nil
        if let series = state.series, let range = series.range {
            chart = SVGChart.records(series, typeName: state.row.sampleTypeName, format: format)
            chartFrom = range.firstDate
            chartTo = range.lastDate
            dashboardHref = ChartPeriodView.href(type: series.type, range)
        }
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The Dashboard: the status, when HealthProbe last checked, the summary cards, up to three
/// recent active alerts, and the charts' numbers.
public struct DashboardState: Sendable, Equatable {
    public var status: StatusIndicator
    /// False before the first check: the screen says how to make one.
    public var hasArchive: Bool
    public var lastChecked: String?
    public var lastCheckedRelative: String?
    public var recordsTracked: Int
    public var anomaliesAllTime: Int
    public var openAnomalies: Int
    /// Unresolved anomalies at or above the alert threshold, newest first, at most three.
    public var recentAlerts: [AnomalyRow]
    public var alertThreshold: Severity
    public var monitoredTypes: Int
    /// The type the records chart shows (the one with most records unless one was asked for).
    public var chartType: String?
    /// Types the chart can show, most records first.
    public var chartTypes: [String]
    public var series: DailyRecordSeries?
    /// The period asked for; nil for the default (the type's latest 60 days, every anomaly's days).
    public var period: DayRange?
    public var timeline: AnomalyTimeline

    /// What the dashboard says before any check: how to make the first one.
    public static let firstCheckHint =
        "Export your data from the Health app (profile picture, Export All Health Data), then choose Check Now with export.zip."

    /// The dashboard before there is an archive to read.
    public static func empty(status: MonitorStatus, hasArchive: Bool = false) -> DashboardState {
        DashboardState(
            status: StatusIndicator(status), hasArchive: hasArchive, lastChecked: nil, lastCheckedRelative: nil,
            recordsTracked: 0, anomaliesAllTime: 0, openAnomalies: 0, recentAlerts: [],
            alertThreshold: MonitoringSettings.defaults.alertThreshold,
            monitoredTypes: MonitoringSettings.defaults.monitoredTypes.count, chartType: nil, chartTypes: [],
            series: nil, period: nil, timeline: AnomalyTimeline(timeZone: TimeZone.current.identifier, days: []))
    }

    /// The dashboard with the records chart of `requested` (else the type of the latest open
    /// loss, else the type with most records) over `period`; the anomalies chart follows the
    /// same period when one is asked for. Alerts most severe first, then latest first.
    public static func load(
        from archive: ArchiveStore, chartType requested: String? = nil, period: DayRange? = nil,
        now: Date = Date(), format: ScreenFormat = ScreenFormat()
    ) throws -> DashboardState {
        let overview = try archive.fetchOverview()
        let settings = try archive.fetchSettings()
        let open = try archive.fetchAnomalies(ArchiveStore.AnomalyFilter())
        let alerts = settings.alerting(open).sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : $0.id > $1.id
        }.prefix(3)
        let types = overview.types.map(\.type)
        let latestLoss = open.filter { $0.type == .silentDeletion && types.contains($0.sampleType) }
            .max { $0.id < $1.id }?.sampleType
        let chartType = requested.flatMap { types.contains($0) ? $0 : nil } ?? latestLoss ?? types.first
        let zone = try archive.dayZone()
        return DashboardState(
            status: StatusIndicator(overview.status), hasArchive: overview.captures > 0,
            lastChecked: overview.lastCheckedAt.map(format.dateTime),
            lastCheckedRelative: overview.lastCheckedAt.map { format.relative($0, now: now) },
            recordsTracked: overview.recordsTracked, anomaliesAllTime: overview.anomaliesAllTime,
            openAnomalies: open.count, recentAlerts: alerts.map { AnomalyRow($0, format: format) },
            alertThreshold: settings.alertThreshold, monitoredTypes: settings.monitoredTypes.count,
            chartType: chartType, chartTypes: types,
            series: try chartType.map {
                try archive.fetchDailySeries(
                    DailySeriesRequest(
                        type: $0, range: period, zone: zone, maximumMarks: ChartRoom.maximumMarks))
            },
            period: period,
            timeline: try archive.fetchAnomalyTimeline(range: period, zone: zone, maximumMarks: ChartRoom.maximumMarks))
    }
}

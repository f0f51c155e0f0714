import Foundation
import HealthProbeArchive

/// The archive as the screens and the app's services use it (the guide's `HealthArchiveStore`),
/// so that no face touches SQL. The live path's writes — upserting samples, marking a
/// verification, recording a disappearance — happen inside a check (`HealthMonitor` through its
/// captures), never from a screen; the screens read, resolve, export reports and change settings.
public protocol HealthArchiveStore: AnomalyStoreProtocol, AuditTrailProtocol {
    func fetchOverview() throws -> ArchiveOverview
    func fetchCaptures() throws -> [CaptureSummary]
    /// What changed between two captures, by type or one type by day; nil for an unknown capture.
    func compareCaptures(from: Int64, to: Int64, byDayOf type: String?) throws -> CaptureComparison?
    func fetchAnomaly(id: Int64) throws -> Anomaly?
    /// An anomaly's report with at most `limit` of its records, after the first `offset`;
    /// values only when asked for.
    func exportReport(anomalyID: Int64, includeValues: Bool, limit: Int, offset: Int) throws -> AnomalyReport?
    func fetchAuditEntries(_ filter: AuditLog.Filter) throws -> AuditLog.Page
    func fetchDailySeries(_ request: DailySeriesRequest) throws -> DailyRecordSeries
    func fetchAnomalyTimeline(range: DayRange?) throws -> AnomalyTimeline
    /// The days an anomaly is about, for its chart; nil when it names none.
    func fetchAnomalyDays(id: Int64) throws -> DayRange?
    /// The ECG recordings among an anomaly's records, with their voltages, for a screen to draw.
    func fetchElectrocardiograms(anomalyID: Int64, limit: Int) throws -> [ElectrocardiogramTrace]
    /// The routes of a `route_changed` anomaly's workouts before and after, for a screen to draw.
    func fetchRouteTraces(anomalyID: Int64, limit: Int) throws -> [RouteTrace]
    func fetchSettings() throws -> MonitoringSettings
    @discardableResult func saveSettings(_ settings: MonitoringSettings) throws -> MonitoringSettings
    @discardableResult func checkIntegrity(now: Date) throws -> IntegrityCheck
    func deleteAllAuditData() throws
}

extension ArchiveStore: HealthArchiveStore {}

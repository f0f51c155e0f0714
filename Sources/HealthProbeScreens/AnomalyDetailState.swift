import Foundation
import HealthProbeArchive
import HealthProbeKit

/// An anomaly's detail: everything about it, its evidence as key–value rows, a Markdown report
/// to share, and its records — whose health values appear only after an explicit reveal.
public struct AnomalyDetailState: Sendable, Equatable {
    public struct EvidenceRow: Sendable, Equatable {
        /// As scripts read it (`previousCount`).
        public var key: String
        /// As people read it (`Previous count`).
        public var label: String
        public var value: String

        init(key: String, value: String, time: ReadableTime) {
            self.key = key
            self.value = EvidenceText.shown(value, key: key, time: time)
            label = EvidenceText.words(key)
        }
    }

    public struct RecordRow: Sendable, Equatable {
        public var role: String
        public var start: String
        public var end: String
        public var source: String
        /// Nil until the values are revealed.
        public var value: String?
    }

    public var row: AnomalyRow
    public var capture: String
    public var evidence: [EvidenceRow]
    public var records: [RecordRow]
    public var recordTotal: Int
    /// The page of records shown (from 1), and how many pages there are.
    public var page: Int
    public var pageCount: Int
    /// The position of the first record shown, from 1 (0 when there is none).
    public var firstRecord: Int
    public var valuesRevealed: Bool
    /// The report a Share action exports: without values unless they were revealed.
    public var markdown: String
    /// The anomaly's sample type over the days it is about, with some days either side: what is
    /// held, and this anomaly's own vanished, backfilled or surplus records.
    public var series: DailyRecordSeries?
    /// Whether the anomaly is about ECG recordings or routes, which a screen draws once values
    /// are revealed.
    public var aboutElectrocardiograms: Bool
    public var aboutRoutes: Bool { row.type == .routeChanged }
    /// The recordings' voltages: only once values are revealed, at most ``traceLimit``.
    public var traces: [ElectrocardiogramTrace]
    /// A `route_changed` anomaly's routes before and after: only once values are revealed.
    public var routes: [RouteTrace]
    /// The command that gives back what was lost or changed (``AnomalyReport/recovery``).
    public var recovery: String?
    /// "Restore 240 records": what the phone can put back of a loss still gone; nil for any
    /// other anomaly, or when nothing of it is left to put back (``RestoreModel``).
    public var restoreTitle: String?

    public static let recordLimit = 50
    public static let traceLimit = 3

    /// The detail of anomaly `id`, or nil when there is none.
    public static func load(
        from archive: ArchiveStore, id: Int64, revealValues: Bool = false, page: Int = 1,
        format: ScreenFormat = ScreenFormat()
    ) throws -> AnomalyDetailState? {
        let page = max(1, page)
        guard
            let report = try archive.exportReport(
                anomalyID: id, includeValues: revealValues, limit: recordLimit, offset: (page - 1) * recordLimit)
        else { return nil }
        let anomaly = report.anomaly
        let aboutElectrocardiograms = anomaly.sampleType == ElectrocardiogramTrace.sampleType
        var capture = "capture \(anomaly.captureId)"
        if let exported = report.capture?.exportDate { capture += ", export of \(format.dateTime(exported))" }
        if let previous = report.capture?.previousCaptureId { capture += ", compared with capture \(previous)" }
        return AnomalyDetailState(
            row: AnomalyRow(anomaly, format: format), capture: capture,
            evidence: anomaly.evidence.sorted { $0.key < $1.key }.map {
                EvidenceRow(key: $0.key, value: $0.value, time: ReadableTime(zone: format.timeZone))
            },
            records: report.records.map { record in
                RecordRow(
                    role: EvidenceText.role(record.role), start: record.startDate.map(format.recordTime) ?? "-",
                    end: record.endDate.map(format.recordTime) ?? "-", source: record.sourceName ?? "-",
                    value: revealValues ? Self.shown(record) : nil)
            }, recordTotal: report.recordTotal, page: page,
            pageCount: max(1, (report.recordTotal + recordLimit - 1) / recordLimit),
            firstRecord: report.records.isEmpty ? 0 : (page - 1) * recordLimit + 1, valuesRevealed: revealValues,
            markdown: report.markdown, series: try chart(of: anomaly, from: archive),
            aboutElectrocardiograms: aboutElectrocardiograms,
            traces: revealValues && aboutElectrocardiograms
                ? try archive.fetchElectrocardiograms(anomalyID: id, limit: traceLimit) : [],
            routes: revealValues && anomaly.type == .routeChanged
                ? try archive.fetchRouteTraces(anomalyID: id, limit: traceLimit) : [],
            recovery: report.recovery, restoreTitle: restoreTitle(of: anomaly, from: archive))
    }

    /// What a restore of the loss would write, as its button says it.
    static func restoreTitle(of anomaly: Anomaly, from archive: ArchiveStore) -> String? {
        guard anomaly.type == .silentDeletion, !anomaly.withdrawn,
            let selection = try? archive.lostRecords(anomalies: [anomaly.id])
        else { return nil }
        let writable = RestoreApplier(RestoreFile(selection)).plan().samples.count
        return writable > 0 ? "Restore \(RestoreWords.records(writable))" : nil
    }

    /// The anomaly's days with a quarter of their length (three days at least) either side.
    static func chart(of anomaly: Anomaly, from archive: ArchiveStore) throws -> DailyRecordSeries? {
        let zone = try archive.dayZone()
        guard let days = try archive.fetchAnomalyDays(id: anomaly.id, zone: zone) else { return nil }
        let context = Int64(max(3, days.count / 4))
        var period = DayRange(first: days.first - context, last: days.last + context)
        if period.count > DayRange.longest { period = .ending(at: period.last, count: DayRange.longest) }
        let series = try archive.fetchDailySeries(
            DailySeriesRequest(
                type: anomaly.sampleType, range: period, anomalyID: anomaly.id, zone: zone,
                maximumMarks: ChartRoom.maximumMarks))
        return series.days.isEmpty ? nil : series
    }

    /// A revealed value with its unit; a record with none (a workout, a summary) says so.
    static func shown(_ record: ArchiveStore.AnomalyRecord) -> String {
        guard let value = record.value else { return "no single value" }
        return [value, record.unit].compactMap { $0 }.joined(separator: " ")
    }
}

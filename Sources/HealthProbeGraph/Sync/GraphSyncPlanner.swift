import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Works out what a sync to a destination reads and writes, from the archive and the
/// destination's state.
public enum GraphSyncPlanner {
    /// Days read at a time: a month keeps memory small and queries few.
    static let chunkDays: Int64 = 31

    /// `full` rewrites every day, as a first sync does: for a destination whose graph was emptied
    /// or edited by hand since its last sync.
    public static func plan(
        _ store: ArchiveStore, destination: String, timeZone: TimeZone, full: Bool = false, now: Date = Date()
    ) throws -> GraphSyncPlan {
        // Reads only (the start-date index the day reads use is the archive's, migration v9):
        // a plan that is never sent, `--dry-run`'s, leaves the archive as it was.
        let snapshot = try store.graphSnapshot()
        return try snapshot.read { source in
            if let running = try source.runningCapture() { throw GraphSyncError.captureRunning(running) }
            guard let capture = try source.latestCompleteCapture() else { throw GraphSyncError.nothingCaptured }
            let ceiling = try source.recordCeiling()
            let previous = try source.syncState(of: destination)
            let previousDataDays = Set(try source.dataDays(of: destination).map(LocalDay.init))
            // What the destination holds can be built on only when it was synced in the same zone.
            let base = full ? nil : previous.flatMap { $0.timeZone == timeZone.identifier ? $0 : nil }
            var clock = LocalDayClock(defaultZone: timeZone)
            let changed: [LocalDay]?
            let ranges: [ClosedRange<LocalDay>]
            if let base {
                let days = try ChangedDays.since(base, source, clock: &clock)
                changed = days.sorted()
                ranges = Self.ranges(of: Set(days.flatMap { [$0.adding(-1), $0, $0.adding(1)] }))
            } else {
                changed = nil
                ranges = try everyDay(source, held: previousDataDays)
            }
            let anomalies = try source.anomalies(since: base).map { try graphAnomaly($0, source, clock: &clock) }
            let next = GraphSyncState(
                destination: destination, captureId: capture, recordCeiling: ceiling,
                anomalyCeiling: try source.anomalyCeiling(), resolvedAnomalies: try source.resolvedAnomalies(),
                timeZone: timeZone.identifier, syncedAt: now, syncs: (previous?.syncs ?? 0) + 1)
            return GraphSyncPlan(
                destination: destination, previous: previous, next: next, changedDays: changed, ranges: ranges,
                previousDataDays: previousDataDays, anomalies: anomalies, isFirst: base == nil, snapshot: snapshot,
                timeZone: timeZone, deviceNames: try ArchiveDayReader.deviceNames(source))
        }
    }

    /// Every day from the first start date to the last, and any day the destination held
    /// outside them (a day that lost everything is rewritten too).
    private static func everyDay(_ source: GraphSource, held: Set<LocalDay>) throws -> [ClosedRange<LocalDay>] {
        var bounds = held.min().map { ($0, held.max()!) }
        if let starts = try source.startDates() {
            let first = LocalDay(Int64(((starts.lowerBound + ArchiveDayReader.earliestOffset) / 86_400).rounded(.down)))
            let last = LocalDay(Int64(((starts.upperBound + ArchiveDayReader.latestOffset) / 86_400).rounded(.down)))
            bounds = bounds.map { (min($0.0, first), max($0.1, last)) } ?? (first, last)
        }
        return bounds.map { [$0.0...$0.1] } ?? []
    }

    /// Consecutive days as ranges, so that each run is read with one query a month.
    static func ranges(of days: Set<LocalDay>) -> [ClosedRange<LocalDay>] {
        var ranges: [ClosedRange<LocalDay>] = []
        for day in days.sorted() {
            if let last = ranges.last, last.upperBound.adding(1) == day {
                ranges[ranges.count - 1] = last.lowerBound...day
            } else {
                ranges.append(day...day)
            }
        }
        return ranges
    }

    /// What a sync from `state` would write, counted without reading a day's records or
    /// touching the archive: `graph status`.
    public static func pending(_ store: ArchiveStore, since state: GraphSyncState) throws -> (days: Int, anomalies: Int)
    {
        try store.readGraphSource { source in
            var clock = LocalDayClock(defaultZone: TimeZone(identifier: state.timeZone) ?? TimeZone.current)
            let days = try ChangedDays.since(state, source, clock: &clock).count
            return (days, try source.anomalies(since: state).count)
        }
    }

    private static func graphAnomaly(_ anomaly: Anomaly, _ source: GraphSource, clock: inout LocalDayClock) throws
        -> GraphAnomaly
    {
        GraphAnomaly(
            id: anomaly.id, sampleType: anomaly.sampleType, resolved: anomaly.resolved || anomaly.withdrawn,
            properties: [
                ("type", .string(anomaly.type.rawValue)), ("severity", .string(anomaly.severity.rawValue)),
                ("sample_type", .string(anomaly.sampleType)), ("summary", .string(anomaly.summary)),
                ("record_count", .integer(Int64(anomaly.recordCount))),
                ("detected_at", .string(UTCText.iso8601(anomaly.detectedAt))),
                ("resolved", .bool(anomaly.resolved || anomaly.withdrawn)),
                ("capture", .integer(anomaly.captureId)),
            ],
            days: try ChangedDays.ofAnomaly(anomaly.id, source, clock: &clock).sorted())
    }
}

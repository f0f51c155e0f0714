import Foundation
import GRDB
import HealthProbeKit

/// Works out what a sync to a destination writes, from the archive and the destination's state.
public enum GraphSyncPlanner {
    /// Days read per query on a first sync: a month keeps memory small and queries few.
    static let chunkDays: Int64 = 31

    /// `full` rewrites every day, as a first sync does: for a destination whose graph was emptied
    /// or edited by hand since its last sync.
    public static func plan(
        _ store: ArchiveStore, destination: String, timeZone: TimeZone, full: Bool = false, now: Date = Date()
    ) throws -> GraphSyncPlan {
        // Reads only (the start-date index the day reads use is the archive's, migration v9):
        // a plan that is never sent, `--dry-run`'s, leaves the archive as it was.
        return try store.writer.read { db in
            if let running = try Int64.fetchOne(db, sql: "SELECT min(id) FROM capture WHERE status = 'running'") {
                throw GraphSyncError.captureRunning(running)
            }
            guard let capture = try Int64.fetchOne(db, sql: "SELECT max(id) FROM capture WHERE status = 'complete'")
            else { throw GraphSyncError.nothingCaptured }
            let ceiling = try Int64.fetchOne(db, sql: "SELECT max(id) FROM record") ?? 0
            let previous = try GraphSyncState.load(db, destination: destination)
            let previousDataDays = try GraphSyncState.dataDays(db, destination: destination)
            // What the destination holds can be built on only when it was synced in the same zone.
            let base = full ? nil : previous.flatMap { $0.timeZone == timeZone.identifier ? $0 : nil }
            var clock = LocalDayClock(defaultZone: timeZone)
            var contents: [LocalDay: DayContent] = [:]
            let changed: Set<LocalDay>
            var reader = try ArchiveDayReader(db, clock: clock)
            if let base {
                changed = try ChangedDays.since(base, db, clock: &clock)
                let neighbourhood = changed.flatMap { [$0.adding(-1), $0, $0.adding(1)] }
                for range in ranges(of: Set(neighbourhood)) { try reader.read(range, into: &contents) }
            } else {
                try readEverything(db, reader: &reader, into: &contents)
                changed = previousDataDays.union(contents.values.filter(\.hasData).map(\.day))
            }
            let anomalyCeiling = try Int64.fetchOne(db, sql: "SELECT max(id) FROM anomaly") ?? 0
            let resolved = try resolvedAnomalies(db)
            let anomalies = try Anomaly.fetchAll(
                db, sql: "SELECT * FROM anomaly WHERE id IN (\(anomaliesToSend(since: base, resolved: resolved))) ORDER BY id"
            ).map { try graphAnomaly($0, db, clock: &clock) }
            let next = GraphSyncState(
                destination: destination, captureId: capture, recordCeiling: ceiling, anomalyCeiling: anomalyCeiling,
                resolvedAnomalies: resolved, timeZone: timeZone.identifier, syncedAt: now,
                syncs: (previous?.syncs ?? 0) + 1)
            return GraphSyncPlan(
                destination: destination, previous: previous, next: next, changedDays: changed.sorted(),
                contents: contents, previousDataDays: previousDataDays, anomalies: anomalies, isFirst: base == nil)
        }
    }

    /// Reads every present record, a month of days at a time, from the first start date to the last.
    private static func readEverything(
        _ db: Database, reader: inout ArchiveDayReader, into contents: inout [LocalDay: DayContent]
    ) throws {
        guard let first = try Double.fetchOne(db, sql: "SELECT min(startDate) FROM record"),
            let last = try Double.fetchOne(db, sql: "SELECT max(startDate) FROM record")
        else { return }
        var day = LocalDay(Int64(((first + ArchiveDayReader.earliestOffset) / 86_400).rounded(.down)))
        let lastDay = LocalDay(Int64(((last + ArchiveDayReader.latestOffset) / 86_400).rounded(.down)))
        while day <= lastDay {
            let end = min(day.adding(chunkDays - 1), lastDay)
            try reader.read(day...end, into: &contents)
            day = end.adding(1)
        }
    }

    /// Consecutive days as ranges, so that each run is read with one query.
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
    public static func pending(_ store: ArchiveStore, since state: GraphSyncState) throws -> (days: Int, anomalies: Int) {
        try store.writer.read { db in
            var clock = LocalDayClock(defaultZone: TimeZone(identifier: state.timeZone) ?? TimeZone.current)
            let days = try ChangedDays.since(state, db, clock: &clock).count
            let anomalies = try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM anomaly WHERE id IN (\(anomaliesToSend(since: state, resolved: resolvedAnomalies(db))))"
            )
            return (days, anomalies ?? 0)
        }
    }

    private static func resolvedAnomalies(_ db: Database) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT id FROM anomaly WHERE resolvedAt IS NOT NULL"))
    }

    /// The ids of the anomalies a sync sends, as a query: on a first sync all of them; later,
    /// those detected since and those whose resolution changed since.
    private static func anomaliesToSend(since state: GraphSyncState?, resolved: Set<Int64>) -> String {
        guard let state else { return "SELECT id FROM anomaly" }
        let flipped = resolved.symmetricDifference(state.resolvedAnomalies).sorted().map(String.init)
        return "SELECT id FROM anomaly WHERE id > \(state.anomalyCeiling) OR id IN (\(flipped.joined(separator: ",")))"
    }

    private static func graphAnomaly(_ anomaly: Anomaly, _ db: Database, clock: inout LocalDayClock) throws
        -> GraphAnomaly
    {
        GraphAnomaly(
            id: anomaly.id, sampleType: anomaly.sampleType, resolved: anomaly.resolved,
            properties: [
                ("type", .string(anomaly.type.rawValue)), ("severity", .string(anomaly.severity.rawValue)),
                ("sample_type", .string(anomaly.sampleType)), ("summary", .string(anomaly.summary)),
                ("record_count", .integer(Int64(anomaly.recordCount))),
                ("detected_at", .string(anomaly.detectedAt)), ("resolved", .bool(anomaly.resolved)),
                ("capture", .integer(anomaly.captureId)),
            ],
            days: try ChangedDays.ofAnomaly(anomaly.id, db, clock: &clock).sorted())
    }
}

import Foundation
internal import GRDB

/// What a graph sync reads of the archive, from one read transaction: ``ArchiveStore/readGraphSource(_:)``.
/// The archive owns the SQL; the graph module gets typed answers and cursors.
public struct GraphSource {
    let db: Database

    /// Which records feed the graph: workouts, activity summaries, and the sample types named.
    public struct Relevance: Sendable {
        let sql: String
        let types: [String]

        public init(sampleTypes: Set<String>) {
            types = sampleTypes.sorted()
            let placeholders = types.map { _ in "?" }.joined(separator: ", ")
            sql = "(kind IN ('workout', 'activitySummary') OR (kind = 'record' AND type IN (\(placeholders))))"
        }
    }

    /// The lowest id of a capture still running (a check in progress), if any.
    public func runningCapture() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT min(id) FROM capture WHERE status = \(CaptureStatus.running.sqlLiteral)")
    }

    public func latestCompleteCapture() throws -> Int64? {
        try LatestCapture.id(db)
    }

    /// The highest record id: records above it arrive after this read.
    public func recordCeiling() throws -> Int64 { try Int64.fetchOne(db, sql: "SELECT max(id) FROM record") ?? 0 }

    public func anomalyCeiling() throws -> Int64 { try Int64.fetchOne(db, sql: "SELECT max(id) FROM anomaly") ?? 0 }

    /// Resolved by the user or withdrawn with a capture set aside: a graph shows both as resolved.
    public func resolvedAnomalies() throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db, sql: "SELECT id FROM anomaly WHERE resolvedAt IS NOT NULL OR withdrawnAt IS NOT NULL"))
    }

    public func syncState(of destination: String) throws -> GraphSyncState? {
        try GraphSyncState.load(db, destination: destination)
    }

    /// The local days (days since 1970-01-01) the destination holds data for.
    public func dataDays(of destination: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT day FROM graphDay WHERE destination = ?", arguments: [destination]))
    }

    /// Every device, by id, with its canonical description.
    public func devices() throws -> [(id: Int64, description: String)] {
        try Row.fetchAll(db, sql: "SELECT id, description FROM device").map { ($0[0], $0[1]) }
    }

    /// The earliest and latest start of any record, as seconds since 1970.
    public func startDates() throws -> ClosedRange<Double>? {
        let row = try Row.fetchOne(db, sql: "SELECT min(startDate), max(startDate) FROM record")
        guard let first = row?[0] as Double?, let last = row?[1] as Double? else { return nil }
        return first...last
    }

    /// Anomalies, oldest first: every one when `since` is nil; else those above its anomaly
    /// ceiling and those whose resolution differs from `resolvedThen`.
    public func anomalies(since state: GraphSyncState?) throws -> [Anomaly] {
        guard let state else { return try Anomaly.fetchAll(db, sql: "SELECT * FROM anomaly ORDER BY id") }
        let flipped = try resolvedAnomalies().symmetricDifference(state.resolvedAnomalies).sorted()
        return try Anomaly.fetchAll(
            db,
            sql: """
                SELECT * FROM anomaly WHERE id > ? OR id IN (SELECT value FROM json_each(?)) ORDER BY id
                """,
            arguments: [state.anomalyCeiling, "[\(flipped.map(String.init).joined(separator: ","))]"])
    }

    /// The present relevant records whose start lies in `starts`, in start order (the start
    /// index's own: nothing is sorted).
    public func records(starting starts: Range<Double>, _ relevance: Relevance) throws -> GraphRecordCursor {
        try GraphRecordCursor(
            db,
            sql: GraphRecordCursor.select(
                where: "startDate >= ? AND startDate < ? AND goneCapture IS NULL AND \(relevance.sql)")
                + " ORDER BY startDate",
            arguments: [starts.lowerBound, starts.upperBound] + relevance.arguments)
    }

    /// Relevant records that changed since a sync: arrived since (ids above its ceiling), gone
    /// in a later capture, or back in a later capture after an absence, whatever the reason.
    public func recordsChanged(since state: GraphSyncState, _ relevance: Relevance) throws -> GraphRecordCursor {
        // Three selects rather than one OR, so that each goes by its own index.
        let conditions = [
            "id > ?", "goneCapture > ?", "id IN (SELECT recordId FROM recordAbsence WHERE returnCapture > ?)",
        ]
        return try GraphRecordCursor(
            db,
            sql: conditions.map { GraphRecordCursor.select(where: "\($0) AND \(relevance.sql)") }
                .joined(separator: " UNION ALL "),
            arguments: [state.recordCeiling] + relevance.arguments + [state.captureId] + relevance.arguments
                + [state.captureId] + relevance.arguments)
    }

    /// Each day's figures of `types` as the Health app shows them (``ArchiveStore/dayFigures(types:days:zone:)``),
    /// from this read transaction.
    public func dayFigures(types: [String], days: ClosedRange<Int64>, zone: TimeZone) throws -> [DayFigure] {
        var reader = try DayFigureReader(db, types: types, zone: zone)
        return try reader.read(days)
    }

    /// The records an anomaly points at.
    public func records(ofAnomaly id: Int64) throws -> GraphRecordCursor {
        try GraphRecordCursor(
            db, sql: GraphRecordCursor.select(where: "id IN (SELECT recordId FROM anomalyRecord WHERE anomalyId = ?)"),
            arguments: [id])
    }
}

extension GraphSource.Relevance {
    var arguments: StatementArguments { StatementArguments(types) }
}

extension ArchiveStore {
    /// Runs `body` in one read transaction of the archive, as `graph status` counts from it.
    public func readGraphSource<T>(_ body: (GraphSource) throws -> T) throws -> T {
        try read { db in try body(GraphSource(db: db)) }
    }

    /// The archive as it is now, for a sync that plans, then reads its days a month at a time
    /// while it writes them: every read of the snapshot sees the archive as it was when it was
    /// made, whatever a check commits meanwhile.
    public func graphSnapshot() throws -> GraphSourceSnapshot {
        do {
            // An archive in memory (tests, the demo) has one connection and no other writer.
            let reader: any DatabaseReader = try (writer as? DatabasePool)?.makeSnapshot() ?? writer
            return GraphSourceSnapshot(reader: reader, store: self)
        } catch {
            throw translated(error)
        }
    }
}

/// One unchanging view of the archive (``ArchiveStore/graphSnapshot()``), read as often as a
/// sync needs; it keeps its read transaction open until it is released.
public final class GraphSourceSnapshot: Sendable {
    private let reader: any DatabaseReader
    private let store: ArchiveStore

    init(reader: any DatabaseReader, store: ArchiveStore) {
        self.reader = reader
        self.store = store
    }

    public func read<T>(_ body: (GraphSource) throws -> T) throws -> T {
        do {
            return try reader.read { db in try body(GraphSource(db: db)) }
        } catch {
            throw store.translated(error)
        }
    }
}

/// A graph query's records, a row at a time, with each column by name. Text and blobs are
/// valid only until the next step.
public final class GraphRecordCursor {
    private let cursor: SQLiteRowCursor

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        cursor = try SQLiteRowCursor(db, sql: sql, arguments: arguments)
    }

    static func select(where condition: String) -> String {
        """
        SELECT kind, type, sourceName, deviceId, unit, value, numericValue, startDate, endDate, metadata, details,
            healthKitUUID, strictFingerprint, semanticKey
        FROM record WHERE \(condition)
        """
    }

    public func step() throws -> Bool { try cursor.step() }

    public var kind: UnsafeBufferPointer<UInt8>? { cursor.bytes(0) }
    public var type: UnsafeBufferPointer<UInt8>? { cursor.bytes(1) }
    public var sourceName: String? { cursor.string(2) }
    public var deviceId: Int64? { cursor.integer(3) }
    public var unit: String? { cursor.string(4) }
    public var value: String? { cursor.string(5) }
    public var numericValue: Double? { cursor.double(6) }
    public var startDate: Double? { cursor.double(7) }
    public var endDate: Double? { cursor.double(8) }
    public var metadata: UnsafeBufferPointer<UInt8>? { cursor.bytes(9) }
    public var details: UnsafeBufferPointer<UInt8>? { cursor.bytes(10) }
    public var healthKitUUID: String? { cursor.string(11) }
    public var strictFingerprint: UnsafeBufferPointer<UInt8>? { cursor.bytes(12) }
    /// The source-free key: a hash of type, unit, start, end and value.
    public var semanticKey: Int64? { cursor.integer(13) }
}

import Foundation
import GRDB

/// Where one destination stands, as the archive keeps it (migration v7): what its graph
/// reflects. It moves only after the destination committed a sync.
public struct GraphSyncState: Sendable, Equatable {
    public var destination: String
    /// The last completed capture the graph reflects.
    public var captureId: Int64
    /// The highest record id read: records above it arrived after the sync.
    public var recordCeiling: Int64
    /// The highest anomaly id sent.
    public var anomalyCeiling: Int64
    /// Anomalies that were resolved when sent: a change of resolution is sent again.
    public var resolvedAnomalies: Set<Int64>
    /// The zone the days were cut in: another zone rewrites every day.
    public var timeZone: String
    public var syncedAt: Date
    /// Syncs committed so far; the next `Sync` node's id is one more.
    public var syncs: Int

    static func load(_ db: Database, destination: String) throws -> GraphSyncState? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM graphSync WHERE destination = ?", arguments: [destination])
        else { return nil }
        let resolved: String = row["resolvedAnomalies"]
        return GraphSyncState(
            destination: destination, captureId: row["captureId"], recordCeiling: row["recordCeiling"],
            anomalyCeiling: row["anomalyCeiling"],
            resolvedAnomalies: Set(resolved.split(separator: ",").compactMap { Int64($0) }),
            timeZone: row["timeZone"], syncedAt: Date(timeIntervalSince1970: row["syncedAt"]), syncs: row["syncs"])
    }

    /// Every destination the archive has synced, for `graph status`.
    static func all(_ db: Database) throws -> [GraphSyncState] {
        try String.fetchAll(db, sql: "SELECT destination FROM graphSync ORDER BY destination").compactMap {
            try load(db, destination: $0)
        }
    }

    /// The days the destination holds data for.
    static func dataDays(_ db: Database, destination: String) throws -> Set<LocalDay> {
        Set(
            try Int64.fetchAll(db, sql: "SELECT day FROM graphDay WHERE destination = ?", arguments: [destination])
                .map(LocalDay.init))
    }

    /// Records a committed sync: the state, and which of the written days now hold data.
    func save(_ db: Database, writtenDays: [LocalDay: Bool]) throws {
        try db.execute(
            sql: """
                INSERT INTO graphSync (destination, captureId, recordCeiling, anomalyCeiling, resolvedAnomalies, timeZone,
                    syncedAt, syncs)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (destination) DO UPDATE SET captureId = excluded.captureId,
                    recordCeiling = excluded.recordCeiling, anomalyCeiling = excluded.anomalyCeiling,
                    resolvedAnomalies = excluded.resolvedAnomalies, timeZone = excluded.timeZone,
                    syncedAt = excluded.syncedAt, syncs = excluded.syncs
                """,
            arguments: [
                destination, captureId, recordCeiling, anomalyCeiling,
                resolvedAnomalies.sorted().map(String.init).joined(separator: ","), timeZone,
                syncedAt.timeIntervalSince1970, syncs,
            ])
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO graphDay (destination, day) VALUES (?, ?)")
        let delete = try db.makeStatement(sql: "DELETE FROM graphDay WHERE destination = ? AND day = ?")
        for (day, hasData) in writtenDays {
            try (hasData ? insert : delete).execute(arguments: [destination, day.number])
        }
    }
}

import Foundation
internal import GRDB

/// Where one graph destination stands, as the archive keeps it (migration v7): what its graph
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

    public init(
        destination: String, captureId: Int64, recordCeiling: Int64, anomalyCeiling: Int64,
        resolvedAnomalies: Set<Int64>, timeZone: String, syncedAt: Date, syncs: Int
    ) {
        self.destination = destination
        self.captureId = captureId
        self.recordCeiling = recordCeiling
        self.anomalyCeiling = anomalyCeiling
        self.resolvedAnomalies = resolvedAnomalies
        self.timeZone = timeZone
        self.syncedAt = syncedAt
        self.syncs = syncs
    }

    /// Makes every destination's next sync rewrite every day, as a sync in another zone does: a
    /// capture set aside or taken back changed which records are present, below the ceilings an
    /// incremental sync reads from.
    static func requireRewrite(_ db: Database) throws {
        try db.execute(sql: "UPDATE graphSync SET timeZone = ''")
    }

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
}

extension ArchiveStore {
    /// Every destination the archive has synced, for `graph status`.
    public func graphSyncStates() throws -> [GraphSyncState] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT destination FROM graphSync ORDER BY destination").compactMap {
                try GraphSyncState.load(db, destination: $0)
            }
        }
    }

    /// Records a sync the destination committed: its new state, which of the written local days
    /// (days since 1970-01-01) now hold data there, and an entry in the audit trail.
    public func recordGraphSync(_ state: GraphSyncState, writtenDays: [Int64: Bool], message: String) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO graphSync (destination, captureId, recordCeiling, anomalyCeiling, resolvedAnomalies,
                        timeZone, syncedAt, syncs)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (destination) DO UPDATE SET captureId = excluded.captureId,
                        recordCeiling = excluded.recordCeiling, anomalyCeiling = excluded.anomalyCeiling,
                        resolvedAnomalies = excluded.resolvedAnomalies, timeZone = excluded.timeZone,
                        syncedAt = excluded.syncedAt, syncs = excluded.syncs
                    """,
                arguments: [
                    state.destination, state.captureId, state.recordCeiling, state.anomalyCeiling,
                    state.resolvedAnomalies.sorted().map(String.init).joined(separator: ","), state.timeZone,
                    state.syncedAt.timeIntervalSince1970, state.syncs,
                ])
            let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO graphDay (destination, day) VALUES (?, ?)")
            let delete = try db.makeStatement(sql: "DELETE FROM graphDay WHERE destination = ? AND day = ?")
            for (day, hasData) in writtenDays {
                try (hasData ? insert : delete).execute(arguments: [state.destination, day])
            }
            try AuditLog.appendGraphSynced(db, captureID: state.captureId, message: message)
        }
    }
}

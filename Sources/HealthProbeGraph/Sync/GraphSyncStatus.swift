import Foundation
import GRDB
import HealthProbeKit

/// `graph status`: each destination's last sync and what its next one would write.
public struct GraphSyncStatus: Encodable, Sendable {
    public struct LastSync: Encodable, Sendable {
        public var number: Int
        /// ISO 8601, UTC.
        public var at: String
        public var capture: Int64
        public var timeZone: String
    }

    public var destination: String
    public var lastSync: LastSync?
    public var pendingDays: Int
    public var pendingAnomalies: Int

    /// The named destinations (every one synced so far when nil), each with what is pending,
    /// worked out in the zone its last sync used.
    public static func read(_ store: ArchiveStore, destinations: [String]?) throws -> [GraphSyncStatus] {
        let states = try store.writer.read { db in try GraphSyncState.all(db) }
        let names = destinations ?? states.map(\.destination)
        return try names.map { name in
            let state = states.first { $0.destination == name }
            let zone = state.flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone.current
            let plan = try GraphSyncPlanner.plan(store, destination: name, timeZone: zone)
            return GraphSyncStatus(
                destination: name,
                lastSync: state.map {
                    LastSync(
                        number: $0.syncs, at: UTCText.iso8601(seconds: $0.syncedAt.timeIntervalSince1970.rounded(.down)),
                        capture: $0.captureId, timeZone: $0.timeZone)
                },
                pendingDays: plan.changedDays.count, pendingAnomalies: plan.anomalies.count)
        }
    }
}

import Foundation
import HealthProbeArchive
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
    /// Days and anomalies the next sync writes; nil for a destination never synced, whose first
    /// sync writes every day.
    public var pendingDays: Int?
    public var pendingAnomalies: Int?

    /// The named destinations (every one synced so far when nil), each with what is pending,
    /// counted in the zone its last sync used. Reads only: no day is read, nothing is written.
    public static func read(_ store: ArchiveStore, destinations: [String]?) throws -> [GraphSyncStatus] {
        let states = try store.graphSyncStates()
        return try (destinations ?? states.map(\.destination)).map { name in
            guard let state = states.first(where: { $0.destination == name }) else {
                return GraphSyncStatus(destination: name)
            }
            let pending = try GraphSyncPlanner.pending(store, since: state)
            return GraphSyncStatus(
                destination: name,
                lastSync: LastSync(
                    number: state.syncs,
                    at: UTCText.iso8601(seconds: state.syncedAt.timeIntervalSince1970.rounded(.down)),
                    capture: state.captureId, timeZone: state.timeZone),
                pendingDays: pending.days, pendingAnomalies: pending.anomalies)
        }
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// What one sync writes to one destination: the changed days, each with its whole content (and
/// its neighbours', which `NEXT_DAY` and `FOLLOWED_BY` read), the anomalies to send, and the
/// state to record once the destination committed.
public struct GraphSyncPlan: Sendable {
    public let destination: String
    public let previous: GraphSyncState?
    public let next: GraphSyncState
    /// Every day rewritten (first sync: every day), oldest first.
    public let changedDays: [LocalDay]
    /// The content of the changed days and of the day before and after each.
    public let contents: [LocalDay: DayContent]
    /// The days the destination held data for before this sync.
    public let previousDataDays: Set<LocalDay>
    public let anomalies: [GraphAnomaly]
    /// A first sync (or one in another time zone): also writes the metric types.
    public let isFirst: Bool

    /// Nothing to write: the destination is up to date.
    public var isEmpty: Bool { changedDays.isEmpty && anomalies.isEmpty }

    /// Changed days that hold data: written whole.
    public var daysWritten: [LocalDay] { changedDays.filter { contents[$0]?.hasData == true } }

    /// Changed days that held data and hold none now: their summary and sleep are removed.
    public var daysRemoved: [LocalDay] {
        changedDays.filter { contents[$0]?.hasData != true && previousDataDays.contains($0) }
    }

    /// The days the destination holds data for after this sync.
    public var dataDays: Set<LocalDay> {
        previousDataDays.subtracting(changedDays).union(daysWritten)
    }

    /// The sync's sequence number at the destination: the `Sync` node's id.
    public var syncNumber: Int { next.syncs }
}

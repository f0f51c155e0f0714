import Foundation
import HealthProbeArchive
import HealthProbeKit

/// What one sync reads and writes for one destination: the days to read, which of them changed
/// when that is known before reading, the anomalies to send, and the state to record once the
/// destination committed. No day's content is held: ``GraphSyncPass`` reads the days a month at
/// a time from the plan's snapshot and writes each month before it reads the next.
public struct GraphSyncPlan: Sendable {
    public let destination: String
    public let previous: GraphSyncState?
    public let next: GraphSyncState
    /// A later sync's changed days, oldest first; nil on a first sync (or one in another time
    /// zone), which rewrites every day with data and every day the destination held: found as
    /// the days are read.
    public let changedDays: [LocalDay]?
    /// The days read, in consecutive runs, oldest first: each changed day with the day before
    /// and after it (which `NEXT_DAY` and `FOLLOWED_BY` read), or every day on a first sync.
    let ranges: [ClosedRange<LocalDay>]
    /// The days the destination held data for before this sync.
    public let previousDataDays: Set<LocalDay>
    public let anomalies: [GraphAnomaly]
    /// A first sync (or one in another time zone): also writes the metric types.
    public let isFirst: Bool
    /// The archive as the plan read it, for the days.
    let snapshot: GraphSourceSnapshot
    let timeZone: TimeZone
    let deviceNames: [Int64: String]
    /// Days read and written at a time.
    var chunkDays = GraphSyncPlanner.chunkDays

    /// Nothing to write: the destination is up to date. A first sync finds out only as it
    /// reads, when the archive holds nothing the graph shows (``GraphSyncTally/changedDays``).
    public var isEmpty: Bool {
        anomalies.isEmpty && (changedDays.map(\.isEmpty) ?? (ranges.isEmpty && previousDataDays.isEmpty))
    }

    /// The sync's sequence number at the destination: the `Sync` node's id.
    public var syncNumber: Int { next.syncs }
}

/// What a sync wrote (or, dry, would write), counted as it went.
public struct GraphSyncTally: Sendable {
    /// Each changed day, and whether it holds data now (written) or not (removed where present).
    public internal(set) var changedDays: [LocalDay: Bool] = [:]
    public internal(set) var outline = GraphOutline()
    /// The statements with rows, before they are cut into batches: none when nothing is written.
    public internal(set) var writes = 0

    /// Changed days that hold data: written whole.
    public var daysWritten: Int { changedDays.values.filter { $0 }.count }
    /// Changed days that held data and hold none now: their summary and sleep are removed.
    public internal(set) var daysRemoved = 0
}

import Foundation
import HealthProbeArchive

/// A question for a period's day figures (docs/DESIGN.md §8a), read the same wherever it is
/// asked — `healthprobe day`, the dashboard's `/day` and the assistant's `daily_summary`: its
/// days, at most ``longest`` of them; its types, one named in any spelling ``SampleTypeNames``
/// reads or every type the latest capture held; and the zone of its local days, the user's
/// choice (`settings --time-zone`) unless another is named.
public struct DayQuery: Sendable {
    /// Ten years of days at once, for every face.
    public static let longest = 3_660

    public let days: ClosedRange<Int64>
    /// Identifiers, sorted.
    public let types: [String]
    public let zone: TimeZone
    /// The zone as it was named (or its identifier), as answers name it.
    public let zoneName: String

    /// What keeps a question from being asked as it was; each face words it.
    public enum Problem: Error, Equatable {
        case backwards(first: Int64, last: Int64)
        case tooLong(longest: Int)
        case unknownZone(String)
        case unknownType(String, nearest: [String])
    }

    /// Reads the question of `store`: days `first` through `last`, `type` (nil: every type held),
    /// in `zoneName` (nil: the archive's day zone).
    public init(
        _ store: ArchiveStore, from first: Int64, to last: Int64, type: String?, zoneName: String?,
        longest: Int = Self.longest
    ) throws {
        guard first <= last else { throw Problem.backwards(first: first, last: last) }
        guard last - first < longest else { throw Problem.tooLong(longest: longest) }
        if let zoneName {
            guard let zone = TimeZone(identifier: zoneName) else { throw Problem.unknownZone(zoneName) }
            self.zone = zone
            self.zoneName = zoneName
        } else {
            zone = try store.dayZone()
            self.zoneName = zone.identifier
        }
        if let type {
            switch SampleTypeNames.resolve(type, among: try store.knownSampleTypes()) {
            case .found(let identifier): types = [identifier]
            case .unknown(let nearest): throw Problem.unknownType(type, nearest: nearest)
            }
        } else {
            types = try store.heldSampleTypes()
        }
        days = first...last
    }

    /// The figure of each type on each day it has records.
    public func figures(in store: ArchiveStore) throws -> [DayFigure] {
        try store.dayFigures(types: types, days: days, zone: zone)
    }

    /// The same figures handed to `body` a few weeks at a time, in order, as they are read.
    public func figures(in store: ArchiveStore, each body: ([DayFigure]) throws -> Void) throws {
        try store.dayFigures(types: types, days: days, zone: zone, each: body)
    }
}

import Foundation

/// A deletion the Health database remembers: the sample's `objects` row kept with `type = 2`,
/// its `creation_date` then the date of the deletion (docs/BACKUP.md).
public struct HealthTombstone: Sendable, Equatable {
    public var uuid: UUID
    /// The deleted sample's type, when its `samples` row was kept and its code is known.
    public var type: String?
    public var startDate: Double?
    public var endDate: Double?
    /// When it was deleted (seconds since 1970, UTC).
    public var deletedAt: Double
    public var sourceName: String?
    /// True when healthd deleted it itself, packing samples into a series sample of the same
    /// type and source that still covers its time: housekeeping, not a loss.
    public var isHousekeeping: Bool
}

/// What a Health database pair was found to be: which optional tables and columns it has.
public struct HealthDatabaseLayout: Sendable, Equatable {
    /// `healthdb.sqlite` was beside it (sources and devices have names).
    public var hasSourceDatabase: Bool
    /// Sources named through `logical_sources` (later iOS) rather than in `sources` itself.
    public var hasLogicalSources: Bool
    /// Correlations as `associations` (iOS 16 and later) rather than `correlations`.
    public var hasAssociations: Bool
    public var hasMetadata: Bool
    public var hasSyncIdentifiers: Bool
    public var hasSeries: Bool
    public var hasWorkouts: Bool
}

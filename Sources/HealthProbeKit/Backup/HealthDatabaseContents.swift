import Foundation
import HealthProbeArchive

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

/// What an anomaly is about (docs/DESIGN.md §8).
public enum AnomalyType: String, Sendable, Codable, CaseIterable {
    case silentDeletion = "silent_deletion"
    case historicalInsertion = "historical_insertion"
    case duplicate
    case sourceOverlap = "source_overlap"
    case valueModified = "value_modified"
    case divergence
    /// The live path only: many records deleted explicitly at once (HKDeletedObjects). Explicit
    /// deletions are otherwise audit entries, not anomalies (docs/DESIGN.md §8).
    case bulkDeletion = "bulk_deletion"
    /// A workout whose route file vanished, lost points or changed points while the workout stayed.
    case routeChanged = "route_changed"
    /// A clinical record whose FHIR document vanished (or could no longer be read) while the
    /// record stayed.
    case documentMissing = "document_missing"
    /// A clinical record whose FHIR document's content changed (an amended result).
    case documentChanged = "document_changed"
    /// One source's records of one type covering the same time more than once (sleep sessions
    /// that nest, step samples that overlap): sums claim more than happened.
    case selfOverlap = "self_overlap"
    /// One source's two records of one type and one interval with different values, the later
    /// written afterwards: an edit that added a value instead of replacing it.
    case conflictingValues = "conflicting_values"
    /// One source's record of one type and value whose start or end moved a little: an edit (an
    /// app re-analysing a night, HealthKit's delete-and-save), not a loss.
    case timesModified = "times_modified"
    /// A capture checked with `--allow-unrelated` that shares almost nothing with what the
    /// archive held: one finding for what every type's comparison found.
    case unrelatedCapture = "unrelated_capture"

    /// A few words for people ("silent deletion").
    public var title: String {
        switch self {
        case .silentDeletion: "silent deletion"
        case .historicalInsertion: "historical insertion"
        case .duplicate: "duplicates"
        case .sourceOverlap: "source overlap"
        case .valueModified: "modified values"
        case .divergence: "divergence"
        case .bulkDeletion: "bulk deletion"
        case .routeChanged: "damaged routes"
        case .documentMissing: "lost documents"
        case .documentChanged: "changed documents"
        case .selfOverlap: "self-overlap"
        case .conflictingValues: "conflicting values"
        case .timesModified: "moved times"
        case .unrelatedCapture: "unrelated capture"
        }
    }
}

extension AnomalyType {
    /// What an anomaly about `sampleType` is, as a heading: "silent deletion of heart rate",
    /// "damaged workout routes", "lost clinical documents".
    public func heading(of sampleType: String) -> String {
        switch self {
        case .routeChanged: "damaged workout routes"
        case .unrelatedCapture: "unrelated capture"
        case .documentMissing where sampleType == "HKClinicalDocument": "lost clinical documents"
        default: "\(title) of \(HealthKitCatalog.displayName(of: sampleType))"
        }
    }
}

/// How much an anomaly needs a look, lowest first.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, critical

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .critical: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

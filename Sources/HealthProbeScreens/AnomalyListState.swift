import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The Anomalies screen: most recent first, filtered by severity (All / Critical / Warning /
/// Info) and type; unresolved ones unless resolved ones are asked for.
public struct AnomalyListState: Sendable, Equatable {
    public struct Filter: Sendable, Equatable {
        /// Exactly this severity; nil for all.
        public var severity: Severity?
        public var type: AnomalyType?
        public var includeResolved: Bool

        public init(severity: Severity? = nil, type: AnomalyType? = nil, includeResolved: Bool = false) {
            self.severity = severity
            self.type = type
            self.includeResolved = includeResolved
        }
    }

    public var filter: Filter
    public var rows: [AnomalyRow]
    /// Unresolved anomalies by severity, whatever the filter: the filter chips' counts.
    public var openCounts: [Severity: Int]

    public static func load(
        from store: ArchiveStore, filter: Filter = Filter(), format: ScreenFormat = ScreenFormat()
    ) throws -> AnomalyListState {
        // One read (anomalies are few): the rows and the chips' counts come from the same list.
        let anomalies = try store.fetchAnomalies(ArchiveStore.AnomalyFilter(includeResolved: filter.includeResolved))
        let shown = anomalies.filter {
            (filter.severity == nil || $0.severity == filter.severity) && (filter.type == nil || $0.type == filter.type)
        }
        return AnomalyListState(
            filter: filter, rows: shown.reversed().map { AnomalyRow($0, format: format) },
            openCounts: anomalies.filter(\.isOpen).reduce(into: [:]) { $0[$1.severity, default: 0] += 1 })
    }
}

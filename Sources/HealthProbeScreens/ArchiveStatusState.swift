import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Archive Status: the archive's health (integrity, size), the last verification, the types
/// covered, and recent Health and iCloud context events — for correlation only.
public struct ArchiveStatusState: Sendable, Equatable {
    public struct TypeRow: Sendable, Equatable {
        public var type: String
        public var name: String
        public var records: Int
        public var sources: Int
        public var monitored: Bool
    }

    public struct ContextRow: Sendable, Equatable {
        public var at: String
        public var kind: String
        public var detail: String
    }

    public var path: String?
    public var size: String
    public var sizeBytes: Int64
    /// "ok", what SQLite found, or nil when no integrity check has run.
    public var integrity: String?
    public var integrityRole: ColorRole
    public var integrityCheckedAt: String?
    public var captures: Int
    public var lastVerified: String?
    public var recordsTracked: Int
    public var types: [TypeRow]
    public var iCloud: String
    public var lastSync: String?
    public var contextEvents: [ContextRow]

    public static func load(
        from archive: ArchiveStore, sync: ContextMonitor?, path: String?,
        format: ScreenFormat = ScreenFormat()
    ) throws -> ArchiveStatusState {
        let overview = try archive.fetchOverview()
        let monitored = Set(try archive.fetchSettings().monitoredTypes)
        let iCloud = try sync?.iCloudEnabled()
        return ArchiveStatusState(
            path: path, size: format.bytes(overview.archiveBytes), sizeBytes: overview.archiveBytes,
            integrity: overview.integrity?.result,
            integrityRole: overview.integrity.map { $0.isOK ? .healthy : .critical } ?? .neutral,
            integrityCheckedAt: overview.integrity.map { format.dateTime($0.checkedAt) },
            captures: overview.captures, lastVerified: overview.lastVerifiedAt.map(format.dateTime),
            recordsTracked: overview.recordsTracked,
            types: overview.types.map { coverage in
                TypeRow(
                    type: coverage.type, name: HealthKitCatalog.displayName(of: coverage.type),
                    records: coverage.records, sources: coverage.sources, monitored: monitored.contains(coverage.type))
            },
            iCloud: iCloud.map { $0 ? "signed in" : "signed out" } ?? "not recorded on this device",
            lastSync: try sync?.lastSyncDate().map(format.dateTime),
            contextEvents: try (sync?.recentChanges(limit: 20) ?? []).map { change in
                ContextRow(
                    at: format.dateTime(Date(timeIntervalSince1970: change.at)),
                    kind: ContextMonitor.Kind(rawValue: change.kind)?.title ?? AuditTrailState.title(of: change.kind),
                    detail: change.detail)
            })
    }
}

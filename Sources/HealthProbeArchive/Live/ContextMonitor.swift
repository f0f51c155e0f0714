import Foundation
internal import GRDB

/// Records changes of the device's Health and iCloud state — access, availability, iCloud
/// account and sync, device migration — so that anomalies can be read against them, and so the
/// monitor knows to verify after one. For correlation only: HealthProbe never syncs its own data.
public struct ContextMonitor: Sendable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case healthAvailability, healthAuthorization, iCloudAccount, iCloudSync, deviceMigration, protectedData
        /// The system or the app updated, the time zone changed: times when syncs and migrations
        /// go wrong.
        case systemUpdate, appUpdate, timeZone

        /// "iCloud sync".
        public var title: String {
            switch self {
            case .healthAvailability: "Health availability"
            case .healthAuthorization: "Health access"
            case .iCloudAccount: "iCloud account"
            case .iCloudSync: "iCloud sync"
            case .deviceMigration: "device migration"
            case .protectedData: "device lock"
            case .systemUpdate: "system update"
            case .appUpdate: "app update"
            case .timeZone: "time zone"
            }
        }
    }

    public struct Change: Sendable, Codable, Equatable, RowDecodable {
        public var id: Int64
        /// Seconds since 1970, UTC.
        public var at: Double
        public var kind: String
        public var detail: String
    }

    public let store: ArchiveStore

    public init(store: ArchiveStore) {
        self.store = store
    }

    /// Notes a change. `detail` is HealthProbe's own words ("signed in again"), never health
    /// data or identifiers.
    public func record(_ kind: Kind, detail: String, at date: Date) throws {
        try store.write { db in
            try db.execute(
                sql: "INSERT INTO contextChange (at, kind, detail) VALUES (?, ?, ?)",
                arguments: [date.timeIntervalSince1970, kind.rawValue, detail])
            try AuditLog.append(db, event: .contextChanged, message: "context: \(kind.rawValue) — \(detail)")
        }
    }

    /// Changes after `date` (all when nil), oldest first.
    public func changes(after date: Date?) throws -> [Change] {
        try store.read { db in
            try Change.fetchAll(
                db, sql: "SELECT * FROM contextChange WHERE at > ? ORDER BY id",
                arguments: [date?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude])
        }
    }

    /// The most recent changes, newest first.
    public func recentChanges(limit: Int) throws -> [Change] {
        try store.read { db in
            try Change.fetchAll(db, sql: "SELECT * FROM contextChange ORDER BY id DESC LIMIT ?", arguments: [limit])
        }
    }

    /// The latest change of `kind`.
    public func latest(_ kind: Kind) throws -> Change? {
        try store.read { db in
            try Change.fetchOne(
                db, sql: "SELECT * FROM contextChange WHERE kind = ? ORDER BY id DESC LIMIT 1",
                arguments: [kind.rawValue])
        }
    }
}

import Foundation
import HealthProbeArchive

/// What the Archive Status screen shows of the device's Health and iCloud state: for
/// correlation only — HealthProbe never syncs its own data.
public protocol SyncMonitorProtocol: Sendable {
    /// Whether the device was last seen signed in to iCloud; nil when nothing was recorded.
    func iCloudEnabled() throws -> Bool?
    /// When Health's iCloud sync was last seen to finish.
    func lastSyncDate() throws -> Date?
    /// The most recent state changes, newest first.
    func recentChanges(limit: Int) throws -> [ContextMonitor.Change]
}

extension ContextMonitor: SyncMonitorProtocol {
    /// The words `recordICloudAccount` writes, which `iCloudEnabled` reads back.
    static let signedIn = "signed in", signedOut = "signed out"

    /// Notes the iCloud account's state as the app observed it.
    public func recordICloudAccount(signedIn: Bool, at date: Date) throws {
        try record(.iCloudAccount, detail: signedIn ? Self.signedIn : Self.signedOut, at: date)
    }

    public func iCloudEnabled() throws -> Bool? {
        try latest(.iCloudAccount).map { !$0.detail.hasPrefix(Self.signedOut) }
    }

    public func lastSyncDate() throws -> Date? {
        try latest(.iCloudSync).map { Date(timeIntervalSince1970: $0.at) }
    }
}

import Foundation
import HealthProbeArchive

/// What the Archive Status screen shows of the device's Health and iCloud state: for
/// correlation only — HealthProbe never syncs its own data.
extension ContextMonitor {
    /// The words `recordICloudAccount` writes, which `iCloudEnabled` reads back.
    static let signedIn = "signed in", signedOut = "signed out"

    /// Notes the iCloud account's state as the app observed it.
    public func recordICloudAccount(signedIn: Bool, at date: Date) throws {
        try record(.iCloudAccount, detail: signedIn ? Self.signedIn : Self.signedOut, at: date)
    }

    /// Whether the device was last seen signed in to iCloud; nil when nothing was recorded.
    public func iCloudEnabled() throws -> Bool? {
        try latest(.iCloudAccount).map { !$0.detail.hasPrefix(Self.signedOut) }
    }

    /// When Health's iCloud sync was last seen to finish.
    public func lastSyncDate() throws -> Date? {
        try latest(.iCloudSync).map { Date(timeIntervalSince1970: $0.at) }
    }
}

import Crypto
import Foundation
import HealthProbeArchive

/// What a phone can see of its own context at launch and on each return to the foreground: the
/// system's and the app's versions, the time zone, which iCloud account is signed in, and which
/// install of the app this is (Apple's identifier for the vendor changes when the app comes back
/// on another device or from a restore). Identities are kept only as digests: the archive can
/// tell that they changed, never what they are.
public struct DeviceContext: Sendable, Codable, Equatable {
    public var systemVersion: String
    public var appVersion: String
    public var timeZone: String
    /// The iCloud account's identity token, digested; nil when no account is signed in.
    public var iCloudAccount: String?
    /// The app's install on this device, digested.
    public var install: String?

    public init(
        systemVersion: String, appVersion: String, timeZone: String, iCloudToken: Data?, installIdentifier: String?
    ) {
        self.systemVersion = systemVersion
        self.appVersion = appVersion
        self.timeZone = timeZone
        iCloudAccount = iCloudToken.map(Self.digest)
        install = installIdentifier.map { Self.digest(Data($0.utf8)) }
    }

    static func digest(_ data: Data) -> String {
        HexText.encode(SHA256.hash(data: data))
    }

    /// The changes from `earlier` to this context, in words: what the archive notes.
    func changes(since earlier: DeviceContext) -> [(ContextMonitor.Kind, String)] {
        var changes: [(ContextMonitor.Kind, String)] = []
        if systemVersion != earlier.systemVersion {
            changes.append((.systemUpdate, "the system updated from \(earlier.systemVersion) to \(systemVersion)"))
        }
        if appVersion != earlier.appVersion {
            changes.append((.appUpdate, "HealthProbe updated from \(earlier.appVersion) to \(appVersion)"))
        }
        if timeZone != earlier.timeZone {
            changes.append((.timeZone, "the time zone changed from \(earlier.timeZone) to \(timeZone)"))
        }
        if iCloudAccount != earlier.iCloudAccount {
            let words =
                switch (earlier.iCloudAccount, iCloudAccount) {
                case (nil, _): "signed in to iCloud"
                case (_, nil): "signed out of iCloud"
                default: "another iCloud account signed in"
                }
            changes.append((.iCloudAccount, words))
        }
        if install != earlier.install, earlier.install != nil {
            changes.append((.deviceMigration, "the app runs on a new device, or was restored from a backup"))
        }
        return changes
    }
}

extension ContextMonitor {
    static let lastContextKey = "context.lastDevice"

    /// Compares the phone's context with the one last seen and notes each change, which makes
    /// the next check a verification scan; the first context seen is only remembered. Returns
    /// what changed.
    @discardableResult
    public func observe(_ context: DeviceContext, at date: Date) throws -> [Kind] {
        let stored = try store.storedSetting(Self.lastContextKey)
        let earlier = try stored.map { try JSONDecoder().decode(DeviceContext.self, from: Data($0.utf8)) }
        let changes = earlier.map { context.changes(since: $0) } ?? []
        for (kind, detail) in changes { try record(kind, detail: detail, at: date) }
        if earlier != context {
            try store.storeSettings(
                [Self.lastContextKey: String(decoding: try JSONEncoder().encode(context), as: UTF8.self)])
        }
        return changes.map(\.0)
    }
}

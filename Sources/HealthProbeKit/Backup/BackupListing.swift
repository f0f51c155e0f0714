import Foundation
import HealthProbeArchive

/// An iPhone backup as its folder describes it — `Info.plist` and `Manifest.plist`, read without
/// decrypting anything: the device's name, when it was made, the iOS version, and whether it is
/// encrypted (only an encrypted backup holds Health data).
public struct BackupSummary: Sendable, Codable, Equatable {
    /// The backup's folder name (the device's identifier, as Finder names it).
    public var folder: String
    public var path: String
    public var deviceName: String?
    public var date: Date?
    public var iOSVersion: String?
    public var productType: String?
    public var encrypted: Bool
    /// Only encrypted backups carry the Health database.
    public var holdsHealthData: Bool { encrypted }
}

public enum BackupListing {
    /// Where Finder (and iTunes before it) keeps backups on a Mac.
    public static var defaultFolder: URL {
        // Not homeDirectoryForCurrentUser: that one exists on macOS only, and the kit builds for
        // iOS too (where this folder is never there).
        URL(fileURLWithPath: UserHome.path, isDirectory: true)
            .appendingPathComponent("Library/Application Support/MobileSync/Backup", isDirectory: true)
    }

    /// The backups in `folder` (each a folder holding `Manifest.plist` or `Info.plist`), newest
    /// first; a folder that is one backup lists itself.
    public static func list(in folder: URL) throws -> [BackupSummary] {
        if let single = summary(of: folder) { return [single] }
        let entries = try FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        return entries.compactMap(summary).sorted {
            ($0.date ?? .distantPast, $1.folder) > ($1.date ?? .distantPast, $0.folder)
        }
    }

    /// A backup folder's description; nil when the folder is not a backup.
    public static func summary(of folder: URL) -> BackupSummary? {
        let info = BackupPropertyList.dictionary(folder.appendingPathComponent("Info.plist"), inside: folder)
        let manifest = BackupPropertyList.dictionary(folder.appendingPathComponent("Manifest.plist"), inside: folder)
        guard info != nil || manifest != nil else { return nil }
        let lockdown = manifest?["Lockdown"]?.dictionary
        return BackupSummary(
            folder: folder.lastPathComponent, path: folder.path,
            deviceName: info?["Device Name"]?.string ?? lockdown?["DeviceName"]?.string,
            date: info?["Last Backup Date"]?.plausibleDate ?? manifest?["Date"]?.plausibleDate,
            iOSVersion: info?["Product Version"]?.string ?? lockdown?["ProductVersion"]?.string,
            productType: info?["Product Type"]?.string ?? lockdown?["ProductType"]?.string,
            encrypted: manifest?["IsEncrypted"]?.bool ?? false)
    }
}

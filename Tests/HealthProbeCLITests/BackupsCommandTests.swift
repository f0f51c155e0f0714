import Foundation
import TestSupport
import Testing

/// `healthprobe backups`: what a backup folder says about itself, read from its property lists,
/// nothing decrypted.
@Suite("Command: backups")
struct BackupsCommandTests {
    /// A backup folder with the two property lists Finder writes (one as XML, one binary).
    static func backup(
        in parent: URL, folder: String, device: String, date: Date, version: String, encrypted: Bool
    ) throws {
        let url = parent.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let info: [String: Any] = [
            "Device Name": device, "Last Backup Date": date, "Product Version": version, "Product Type": "iPhone13,2",
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: url.appendingPathComponent("Info.plist"))
        let manifest: [String: Any] = [
            "IsEncrypted": encrypted, "Date": date, "Version": "10.0",
            "Lockdown": ["DeviceName": device, "ProductVersion": version],
        ]
        try PropertyListSerialization.data(fromPropertyList: manifest, format: .binary, options: 0)
            .write(to: url.appendingPathComponent("Manifest.plist"))
    }

    @Test func backupsAreListedNewestFirstWithWhatTheyHold() throws {
        let parent = try FixtureFiles.temporaryFolder()
        try Self.backup(
            in: parent, folder: "00008101-TESTDEVICE01", device: "iPhone-TESTDEVICE",
            date: Date(timeIntervalSince1970: 946_684_800), version: "17.5", encrypted: true)
        try Self.backup(
            in: parent, folder: "00008101-TESTDEVICE02", device: "iPad-TESTDEVICE",
            date: Date(timeIntervalSince1970: 946_771_200), version: "16.7", encrypted: false)
        try FileManager.default.createDirectory(
            at: parent.appendingPathComponent("not-a-backup"), withIntermediateDirectories: true)
        let listed = try CommandRunner.run(["backups", parent.path])
        #expect(listed.status == 0)
        #expect(
            listed.stdout.split(separator: "\n") == [
                "00008101-TESTDEVICE02  iPad-TESTDEVICE, 2000-01-02 00:00 UTC, iOS 16.7, not encrypted: no Health data",
                "00008101-TESTDEVICE01  iPhone-TESTDEVICE, 2000-01-01 00:00 UTC, iOS 17.5, encrypted: holds Health data",
                "Check it: healthprobe check \"\(parent.appendingPathComponent("00008101-TESTDEVICE01").path)\" (asks for the backup's password)",
            ])
        let json = try CommandRunner.run(["backups", parent.path, "--json"])
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["encrypted"] as? Bool } == [false, true])
        #expect(decoded.first?["iOSVersion"] as? String == "16.7")
        // One backup's own folder lists itself.
        let one = try CommandRunner.run(["backups", parent.appendingPathComponent("00008101-TESTDEVICE01").path])
        #expect(one.stdout.hasPrefix("00008101-TESTDEVICE01  iPhone-TESTDEVICE"))
    }

    @Test func aFolderThatIsNotThereIsBadInput() throws {
        let outcome = try CommandRunner.run(["backups", "/nonexistent-backups"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr == "healthprobe: /nonexistent-backups: no such folder\n")
    }
}

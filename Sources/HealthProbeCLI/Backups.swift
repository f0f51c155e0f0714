import ArgumentParser
import Foundation
import HealthProbeKit

extension HealthProbeCommand {
    struct Backups: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the iPhone backups in a folder: device, date, iOS version, whether encrypted.",
            discussion: """
                Reads each backup's Info.plist and Manifest.plist; nothing is decrypted. Only an \
                encrypted backup holds the Health database. Without FOLDER, the Mac's backup folder \
                (~/Library/Application Support/MobileSync/Backup).
                """)

        @Argument(help: "A folder of backups, or one backup's folder.")
        var folder: String?
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let url = folder.map { URL(fileURLWithPath: $0) } ?? BackupListing.defaultFolder
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
                guard folder == nil else {
                    throw CommandFailure("\(url.path): no such folder", code: CommandFailure.badInputCode)
                }
                if output.json { return try Output.json([BackupSummary]()) }
                return Output.line("No backups: there is no \(url.path) (give a folder: healthprobe backups FOLDER).")
            }
            let backups: [BackupSummary]
            do {
                backups = try BackupListing.list(in: url)
            } catch {
                throw CommandFailure("\(url.path) cannot be read", code: CommandFailure.ioFailureCode)
            }
            if output.json { return try Output.json(backups) }
            guard !backups.isEmpty else { return Output.line("No backups in \(url.path).") }
            for backup in backups {
                let facts = [
                    backup.deviceName ?? "unnamed device", backup.date.map(Output.time) ?? "no date",
                    backup.iOSVersion.map { "iOS \($0)" } ?? "iOS version unknown",
                    backup.encrypted ? "encrypted: holds Health data" : "not encrypted: no Health data",
                ]
                Output.line("\(backup.folder)  \(facts.joined(separator: ", "))")
            }
            // Newest first: the first encrypted one is the one a user most likely wants.
            if let newest = backups.first(where: \.encrypted) {
                Output.line()
                Output.line("Check it: healthprobe check \"\(newest.path)\" (asks for the backup's password)")
            }
        }
    }
}

import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    /// `healthprobe restore`: what an anomaly or a capture proved lost, as a restore file the
    /// iPhone app writes back into Health once.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write what vanished as a restore file, for the iPhone app to put back into Health.",
            usage: """
                healthprobe restore --anomaly <id> … --output <file> [<options>]
                  healthprobe restore --capture <id> --dry-run
                """,
            discussion: """
                Holds the records an anomaly (or every silent deletion of a capture) proves vanished and \
                still gone, each as archived: type, times, value and unit, source, device and creation \
                date, and a stable identifier that makes a second restore replace, not duplicate. Never \
                records deleted on the phone, nor any back since. The format: docs/RESTORE.md. Exit \
                codes: 64 bad usage or nothing to put back, 74 the file or the archive cannot be used.
                """)

        @Option(name: .customLong("anomaly"), help: "An anomaly whose lost records to put back (repeat for more).")
        var anomalies: [Int64] = []

        @Option(help: "Every silent deletion this capture found.")
        var capture: Int64?

        @Option(help: "The restore file to write.")
        var output: String?

        @Flag(name: .customLong("dry-run"), help: "Say what it would put back, per type and day; write nothing.")
        var dryRun = false

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        @Flag(help: "Replace an existing file.")
        var force = false

        @OptionGroup var encryption: EncryptionOptions
        @OptionGroup var archive: ArchiveOptions

        func validate() throws {
            if anomalies.isEmpty == (capture == nil) {
                throw ValidationError("name what to put back: --anomaly N (one or more) or --capture N")
            }
            if !dryRun && (output ?? "").isEmpty {
                throw ValidationError(
                    "name the restore file with --output FILE, or see what it would hold with --dry-run")
            }
        }

        var target: RestoreRequest.Target { capture.map { .capture($0) } ?? .anomalies(anomalies) }

        func run() async throws {
            let store = try archive.openExisting()
            let zone = try store.dayZone()
            // Read first: nothing to put back is said before a password is asked for.
            let selection = try store.lostRecords(target)
            let preview = RestorePreview(selection, zone: zone)
            if dryRun {
                if json { return try Output.json(preview) }
                return Output.lines(RestoreText.preview(preview))
            }
            let request = RestoreRequest(
                target: target, outputPath: URL(fileURLWithPath: output ?? "").standardizedFileURL.path,
                password: try encryption.password(), replacesExisting: force)
            let result = try store.writeRestoreFile(request, selection: selection)
            if json { return try Output.json(RestoreText.Summary(result)) }
            Output.lines(RestoreText.written(result, preview: preview))
        }
    }
}

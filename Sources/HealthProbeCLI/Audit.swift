import ArgumentParser
import HealthProbeKit
import HealthProbeScreens

extension HealthProbeCommand {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit trail: archive created or migrated, captures, updates, anomalies, refusals.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openForReading()
            let entries = try store.fetchAuditEntries()
            if output.json { return try Output.json(entries.map(AuditLog.ExportedEntry.init)) }
            for entry in entries {
                Output.line(
                    UTCText.iso8601(seconds: entry.at.rounded(.down)) + "  "
                        + AuditTrailState.title(of: entry.event).padding(20) + entry.message)
            }
        }
    }
}

import ArgumentParser
import HealthProbeKit

extension HealthProbeCommand {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit trail: archive created or migrated, captures, updates, anomalies, refusals.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openExisting()
            let entries = try CommandErrors.mapping { try store.fetchAuditEntries() }
            if output.json { return try Output.json(entries.map(AuditEntryJSON.init)) }
            for entry in entries {
                Output.line(
                    UTCText.iso8601(seconds: entry.at.rounded(.down)) + "  " + entry.event.padding(18) + entry.message)
            }
        }
    }
}

/// An audit entry for scripts: the time in ISO 8601.
struct AuditEntryJSON: Encodable {
    var id: Int64
    var at: String
    var event: String
    var captureId: Int64?
    var message: String

    init(_ entry: AuditLog.Entry) {
        id = entry.id
        at = UTCText.iso8601(seconds: entry.at.rounded(.down))
        event = entry.event
        captureId = entry.captureId
        message = entry.message
    }
}

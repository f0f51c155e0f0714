import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

extension HealthProbeCommand {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit trail: archive created or migrated, captures, updates, anomalies, refusals.",
            usage: """
                healthprobe audit [--event <event>] [--limit <limit>] [<options>]
                """,
            discussion: """
                Oldest first. --event keeps one kind of entry, named as the trail prints it ("input refused") \
                or as --json does (inputRefused); --limit keeps the newest N.
                """)

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        @Option(help: "Only entries of this kind: \"capture completed\", \"input refused\", …")
        var event: String?

        @Option(name: [.customShort("n"), .long], help: "Only the newest N entries.")
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
            _ = try eventFilter()
        }

        func run() async throws {
            let store = try archive.openForReading()
            // The trail's newest first, as the dashboard pages it; printed oldest first.
            let page = try store.fetchAuditEntries(
                AuditLog.Filter(event: try eventFilter()?.rawValue, limit: limit ?? Int.max))
            let entries = Array(page.entries.reversed())
            if output.json { return try Output.json(entries.map(AuditLog.ExportedEntry.init)) }
            for entry in entries {
                Output.line([
                    .init(
                        Output.readableTime.second(Date(timeIntervalSince1970: entry.at)) + "  "
                            + AuditTrailState.title(of: entry.event).padding(20)),
                    .init(entry.message),
                ])
            }
        }

        /// The event `--event` names, in words or as its identifier; a near miss suggests the one meant.
        private func eventFilter() throws -> AuditLog.Event? {
            guard let event else { return nil }
            let squeezed = event.replacingOccurrences(of: " ", with: "").lowercased()
            if let match = AuditLog.Event.allCases.first(where: { $0.rawValue.lowercased() == squeezed }) {
                return match
            }
            let titles = AuditLog.Event.allCases.map { AuditTrailState.title(of: $0.rawValue) }
            if let nearest = CommandSuggestion.nearest(to: event, among: titles) {
                throw ValidationError("no audit entry is called '\(event)'; did you mean '\(nearest)'?")
            }
            throw ValidationError(
                "no audit entry is called '\(event)'; the kinds are \(titles.joined(separator: ", "))")
        }
    }
}

import ArgumentParser
import Foundation

extension HealthProbeCommand {
    /// `healthprobe mcp`: the assistant — the archive answering an assistant, over stdio,
    /// read-only. The command keeps the protocol's name, which clients' settings name. It runs in
    /// `healthprobe-connect` (``ConnectionCommands``).
    package struct Assistant: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Answer an assistant from the archive: a local, read-only MCP server over stdio.",
            discussion: """
                An assistant (Claude Desktop, an IDE, any MCP client) starts this command and asks through its \
                standard input and output; nothing listens on the network. It can see: the archive's status, \
                captures and what changed between them, anomalies with their evidence, per-day counts, sums, \
                minimums, maximums and means of a type as the Health app shows them, where data is missing, and \
                individual records' times and sources. It never sees a single record's health value unless \
                --reveal-values is given, nor a name, date of birth or device serial, and it cannot change \
                anything: each question is noted in the audit trail (`healthprobe audit`) with its tool and \
                the names of its arguments.
                """)

        @Flag(name: .customLong("reveal-values"), help: "Let the assistant see single records' values too.")
        package var revealValues = false

        @OptionGroup package var archive: ArchiveOptions

        package init() {}

        package func run() async throws {
            try await ConnectionCommands.run { try await $0.answerAssistant(self) }
        }
    }
}

import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeMCP

extension HealthProbeCommand {
    /// `healthprobe mcp`: the assistant — the archive answering an assistant, over stdio,
    /// read-only. The command keeps the protocol's name, which clients' settings name.
    struct Assistant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
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
        var revealValues = false

        @OptionGroup var archive: ArchiveOptions

        func run() async throws {
            let path = archive.resolvedPath
            guard FileManager.default.fileExists(atPath: path) else {
                throw ArchiveError.missing(path: path)
            }
            try await AssistantServer(archivePath: path, revealValues: revealValues).run(
                version: HealthProbeVersion.number)
        }
    }
}

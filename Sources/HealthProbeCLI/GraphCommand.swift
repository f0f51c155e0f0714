import ArgumentParser
import Foundation

extension HealthProbeCommand {
    /// `healthprobe graph sync` and `graph status`, which run in `healthprobe-connect`
    /// (``ConnectionCommands``).
    struct Graph: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep a graph of daily summaries in Neo4j or a local FalkorDB in step with the archive.",
            discussion: """
                Only daily aggregates, workouts, sleep sessions and anomalies are sent, never \
                individual samples, and only to the destination you name.
                """,
            subcommands: [GraphSync.self, GraphStatus.self])
    }

    /// The destination and its credentials, as `graph sync` and `graph status` take them.
    package struct GraphOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "neo4j+s://host or https://host[:port] (Neo4j's Query API), http://localhost:port, falkordb:///path/to/socket or falkordb://127.0.0.1:PORT.",
                valueName: "url"))
        package var to: String?

        @Option(help: "The Neo4j user (basic authentication).")
        package var user = "neo4j"

        @Flag(help: "Send the password as a bearer token instead (an Aura SSO token).")
        package var bearer = false

        @Option(
            name: .customLong("password-file"),
            help: "An owner-only file holding the password (else $HEALTHPROBE_GRAPH_PASSWORD).")
        package var passwordFile: String?

        @Option(
            name: .customLong("time-zone"),
            help: "The IANA zone of the local days (default: `settings --time-zone`, else this machine's).")
        package var timeZone: String?

        package init() {}
    }

    package struct GraphSync: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Write the days that changed since the last sync (every day the first time) to the graph.",
            usage: """
                healthprobe graph sync [--to <url>] [--user <user>] [<options>]
                """)

        @OptionGroup package var graph: GraphOptions

        @Flag(
            name: .customLong("dry-run"),
            help: "Say what would be written (days, nodes and relationships by label), send nothing.")
        package var dryRun = false

        @Flag(help: "Rewrite every day, as the first sync does (for a graph emptied or edited since its last sync).")
        package var full = false

        @OptionGroup package var archive: ArchiveOptions
        @OptionGroup package var output: OutputOptions

        package init() {}

        package func run() async throws {
            try await ConnectionCommands.run { try await $0.syncGraph(self) }
        }
    }

    package struct GraphStatus: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each graph destination: its last sync and what is pending for the next.")

        @Option(help: ArgumentHelp("Only this destination.", valueName: "url"))
        package var to: String?

        @OptionGroup package var archive: ArchiveOptions
        @OptionGroup package var output: OutputOptions

        package init() {}

        package func run() async throws {
            try await ConnectionCommands.run { try await $0.showGraphStatus(self) }
        }
    }
}

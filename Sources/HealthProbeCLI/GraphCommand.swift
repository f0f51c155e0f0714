import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeGraph
import HealthProbeKit

extension HealthProbeCommand {
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
    struct GraphOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "neo4j+s://host or https://host[:port] (Neo4j's Query API), http://localhost:port, falkordb:///path/to/socket or falkordb://127.0.0.1:PORT.",
                valueName: "url"))
        var to: String?

        @Option(help: "The Neo4j user (basic authentication).")
        var user = "neo4j"

        @Flag(help: "Send the password as a bearer token instead (an Aura SSO token).")
        var bearer = false

        @Option(
            name: .customLong("password-file"),
            help: "An owner-only file holding the password (else $HEALTHPROBE_GRAPH_PASSWORD).")
        var passwordFile: String?

        @Option(
            name: .customLong("time-zone"),
            help: "The IANA zone of the local days (default: `settings --time-zone`, else this machine's).")
        var timeZone: String?

        func destination() throws -> GraphDestination {
            guard let to else { throw CommandFailure.usage("name the destination with --to URL") }
            return try GraphDestination.parse(to)
        }

        /// The zone asked for, else `fallback` (the archive's day zone).
        func zone(else fallback: TimeZone) throws -> TimeZone {
            guard let timeZone else { return fallback }
            guard let zone = TimeZone(identifier: timeZone) else {
                throw CommandFailure.usage(
                    "\(timeZone) is not a time zone name (like Europe/Berlin or America/New_York)")
            }
            return zone
        }

        /// The engine, with credentials read only when the destination needs them.
        func engine(for destination: GraphDestination) throws -> any GraphEngine {
            var credentials: Neo4jQueryClient.Credentials?
            if destination.needsCredentials {
                let password = try readPassword()
                credentials = bearer ? .bearer(token: password) : .basic(user: user, password: password)
            }
            return try destination.engine(credentials: credentials)
        }

        private func readPassword() throws -> String {
            do {
                if let passwordFile {
                    return String(decoding: try PasswordInput.fromFile(passwordFile), as: UTF8.self)
                }
                if let environment = ProcessInfo.processInfo.environment["HEALTHPROBE_GRAPH_PASSWORD"],
                    !environment.isEmpty
                {
                    return environment
                }
                let typed = try PasswordInput.fromTerminal(confirming: false)
                guard !typed.isEmpty else { throw PasswordInput.Problem.emptyPassword }
                return String(decoding: typed, as: UTF8.self)
            } catch PasswordInput.Problem.noTerminal {
                throw CommandFailure.usage(
                    "Neo4j needs a password: set HEALTHPROBE_GRAPH_PASSWORD or give --password-file")
            } catch let problem as PasswordInput.Problem {
                throw CommandFailure.usage(problem.localizedDescription)
            }
        }
    }
}

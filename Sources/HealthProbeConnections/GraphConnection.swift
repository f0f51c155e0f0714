import Foundation
import HealthProbeCLI
import HealthProbeGraph

/// The destination named and its engine, with the credentials it needs.
extension HealthProbeCommand.GraphOptions {
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

import HealthProbeCLI

/// The commands that talk to another program, as `healthprobe-connect` runs them.
public enum HealthProbeConnections {
    /// Lets this process run `mcp` and `graph` itself; before the command line is parsed.
    public static func install() {
        ConnectionCommands.installed = ConnectionRunner()
    }
}

/// Runs each connection command (``ConnectionCommandRunner``).
struct ConnectionRunner: ConnectionCommandRunner {
    func answerAssistant(_ command: HealthProbeCommand.Assistant) async throws {
        try await command.answer()
    }

    func syncGraph(_ command: HealthProbeCommand.GraphSync) async throws {
        try await command.sync()
    }

    func showGraphStatus(_ command: HealthProbeCommand.GraphStatus) async throws {
        try command.show()
    }
}

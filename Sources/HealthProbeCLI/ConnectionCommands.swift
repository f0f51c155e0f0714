import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What runs the commands that talk to another program: an assistant (`mcp`) and a graph
/// database (`graph sync`, `graph status`).
package protocol ConnectionCommandRunner: Sendable {
    func answerAssistant(_ command: HealthProbeCommand.Assistant) async throws
    func syncGraph(_ command: HealthProbeCommand.GraphSync) async throws
    func showGraphStatus(_ command: HealthProbeCommand.GraphStatus) async throws
}

/// The commands that talk to another program run in `healthprobe-connect`, the executable built
/// and installed beside `healthprobe`. Only it links the HTTP clients they need: the MCP SDK and
/// the Neo4j client use URLSession, which loads libcurl with its TLS, Kerberos and LDAP libraries
/// into every process that links it, about 6 MB resident before any work is done (BENCHMARKS.md).
/// A check, an export or the dashboard loads none of them.
///
/// Both executables parse the same commands, so help, completions and usage errors are the same;
/// `healthprobe` hands such a command's whole command line over to `healthprobe-connect`, which
/// replaces its process (the same process id, standard streams and signals), and there the
/// runner ``installed`` at its start runs it.
package enum ConnectionCommands {
    /// Set by `healthprobe-connect` before it parses its command line; nil in `healthprobe`.
    nonisolated(unsafe) package static var installed: (any ConnectionCommandRunner)?

    static let executableName = "healthprobe-connect"

    /// Runs `body` with the installed runner, or hands the command line over to the executable
    /// that has one.
    static func run(_ body: (any ConnectionCommandRunner) async throws -> Void) async throws {
        guard let installed else { try handOver() }
        try await body(installed)
    }

    /// Replaces this process with `healthprobe-connect` from the same folder, given the same
    /// arguments; throws, having changed nothing, when it is not there or cannot start.
    private static func handOver() throws -> Never {
        let own = Bundle.main.executableURL?.resolvingSymlinksInPath()
        let path = (own?.deletingLastPathComponent() ?? URL(fileURLWithPath: "."))
            .appendingPathComponent(executableName).path
        let command = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") } ?? "this command"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CommandFailure(
                "`\(command)` runs in \(executableName), which is not beside \(own?.path ?? "healthprobe"): "
                    + "build and install it too (`swift build -c release --product \(executableName)`)",
                code: 74)
        }
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var pointers = arguments.map { strdup($0) } + [nil]
        execv(path, &pointers)
        let problem = String(cString: strerror(errno))
        throw CommandFailure("\(executableName) could not be started (\(problem)): nothing was done", code: 74)
    }
}

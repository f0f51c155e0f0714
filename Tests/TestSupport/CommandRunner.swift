import Foundation

/// Runs the built `healthprobe` executable as a child process, as a user would.
public struct CommandRunner {
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var seconds: Double
    }

    public static let executable: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/healthprobe")
    }()

    private static func makeProcess(
        _ arguments: [String], environment: [String: String], executable: URL = executable
    ) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Times print in the machine's zone: the tests read them in UTC unless they say otherwise.
        // Lines are whole unless a test names a width (`COLUMNS`), whatever the shell running
        // the tests exports.
        var inherited = ProcessInfo.processInfo.environment
        inherited["COLUMNS"] = nil
        process.environment = inherited.merging(["TZ": "UTC"].merging(environment) { $1 }) { $1 }
        return process
    }

    /// Starts the command with its output discarded (its errors into `stderr` when given), for
    /// tests that signal or kill it.
    public static func start(_ arguments: [String], environment: [String: String] = [:], stderr: Pipe? = nil) throws
        -> Process
    {
        let process = makeProcess(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the command to its end; `executable` another copy of it (a test's own folder).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
        executable: URL = executable
    ) throws -> Outcome {
        let process = makeProcess(arguments, environment: environment, executable: executable)
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(started))
    }

    /// `run` on a thread of its own, for a test that serves the command from its own process: a
    /// child waited on inside Swift's few cooperative threads can hold the very thread the
    /// server's handler needs, and the command then waits out its time limit.
    public static func runApart(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> Outcome
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(arguments, environment: environment) })
            }
        }
    }
}

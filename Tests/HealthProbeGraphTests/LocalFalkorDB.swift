import Foundation
import HealthProbeGraph

/// A real FalkorDB server for a test: started by `Scripts/falkordb.sh` (FalkorDB from PyPI in a
/// virtual environment under .build, on a unix socket in a folder of its own, TCP off), stopped
/// when the test ends, and in any case when the test process ends.
final class LocalFalkorDB {
    let folder: URL
    let socket: String

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("falkordb-\(UUID().uuidString)")
        // With this process as its owner: the server goes with it even when no deinit runs.
        try Self.script(
            ["start", folder.path, String(ProcessInfo.processInfo.processIdentifier)], log: folder.path + ".start.log")
        socket = folder.appendingPathComponent("falkordb.sock").path
    }

    deinit {
        // A test's graph is not kept: the server exits at once, without saving (a SIGTERM saves
        // first, which takes a second or more).
        if let connection = try? RESPConnection(.unixSocket(socket), timeout: 2) {
            _ = try? connection.send(["SHUTDOWN", "NOSAVE"])
        }
        try? Self.script(["stop", folder.path], log: folder.path + ".stop.log")
        try? FileManager.default.removeItem(at: folder)
        for log in [".start.log", ".stop.log"] { try? FileManager.default.removeItem(atPath: folder.path + log) }
    }

    func graph(_ name: String = "health") throws -> FalkorDBGraph {
        try FalkorDBGraph(.unixSocket(socket), graph: name, timeout: 180)
    }

    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the script with its output in a file, not a pipe: the server it starts outlives
    /// it and would hold a pipe open.
    private static func script(_ arguments: [String], log: String) throws {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [packageRoot.appendingPathComponent("Scripts/falkordb.sh").path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let problem = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw StartFailed(description: "falkordb.sh \(arguments[0]): \(problem)")
        }
    }
}

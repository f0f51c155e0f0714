import Foundation

/// The Python tools no one here wrote that the tests check HealthProbe against (an independent
/// decrypter, an independent export reader, the official MCP client), each from PyPI in its own
/// virtual environment under .build, provisioned at first use by `Scripts/python-tool.sh` (which
/// `.ci/run` calls too): a fresh clone's `swift test` needs nothing else.
public enum PythonTool: String, Sendable {
    case backupDecrypt = "backup-decrypt"
    case appleReaders = "apple-readers"
    case mcpClient = "mcp-client"

    var package: String {
        switch self {
        case .backupDecrypt: "iphone-backup-decrypt==0.11.2"
        case .appleReaders: "healthkit-to-sqlite==1.0.1"
        case .mcpClient: "mcp==2.3.0"
        }
    }

    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The environment's bin folder, made first when it is not there (once; the script holds a
    /// lock while it installs).
    public func bin() throws -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "bash", Self.packageRoot.appendingPathComponent("Scripts/python-tool.sh").path, rawValue, package,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ProvisionFailed(description: "Scripts/python-tool.sh \(rawValue) failed: \(problem)")
        }
        return URL(fileURLWithPath: printed.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The environment's Python.
    public func python() throws -> String { try bin().appendingPathComponent("python").path }

    struct ProvisionFailed: Error, CustomStringConvertible {
        var description: String
    }
}

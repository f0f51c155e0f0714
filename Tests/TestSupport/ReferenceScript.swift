import Foundation

/// The independent references written apart from the Swift components, in `Scripts/` (plain
/// Python, standard library only): each reads the exports itself and prints JSON.
public enum ReferenceScript {
    /// Runs `Scripts/<name>` with `arguments` and reads what it printed; a failed run is an error.
    public static func json(_ name: String, _ arguments: [String]) throws -> Any {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", PythonTool.packageRoot.appendingPathComponent("Scripts/\(name)").path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "Scripts/\(name) exited \(process.terminationStatus)")
        }
        return try JSONSerialization.jsonObject(with: data)
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }
}

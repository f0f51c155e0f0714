import ArgumentParser
import Foundation

/// The version `--version` prints.
enum HealthProbeVersion {
    static let number = "0.9.0"
}

/// A command name mistyped (`chek`), answered with the nearest one, as argument-parser already
/// answers a mistyped option.
enum CommandSuggestion {
    static var names: [String] {
        HealthProbeCommand.configuration.subcommands.map {
            $0.configuration.commandName ?? String(describing: $0).lowercased()
        }
    }

    /// "unknown command 'chek'; did you mean 'check'?" when the first argument is not an option
    /// and names no command; nil otherwise (argument-parser's own message is the right one).
    static func forUnknownCommand(in arguments: ArraySlice<String>) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) else { return nil }
        if FileManager.default.fileExists(atPath: first) {
            return "unknown command '\(first)'; to check it: healthprobe check \(first)"
        }
        let nearest = names.map { ($0, distance(first.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let nearest, nearest.1 <= max(2, first.count / 3) else {
            return "unknown command '\(first)'; the commands are \(names.joined(separator: ", "))"
        }
        return "unknown command '\(first)'; did you mean '\(nearest.0)'?"
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

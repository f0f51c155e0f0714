import ArgumentParser
import Foundation

/// The version `--version` prints.
package enum HealthProbeVersion {
    package static let number = "0.9.0"
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
        guard let nearest = nearest(to: first, among: names) else {
            return "unknown command '\(first)'; the commands are \(names.joined(separator: ", "))"
        }
        return "unknown command '\(first)'; did you mean '\(nearest)'?"
    }

    /// The name closest to `word` (case aside), when it is close enough to be what was meant:
    /// at most two edits, or a third of the word's length for longer words.
    static func nearest(to word: String, among names: [String]) -> String? {
        let typed = word.lowercased()
        let closest = names.map { ($0, distance(typed, $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let closest, closest.1 <= max(2, word.count / 3) else { return nil }
        return closest.0
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

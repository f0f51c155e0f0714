import Foundation

/// Lines fitted to a terminal's width: a long line goes on under its own column (a summary under
/// the summary, an evidence value under its value), broken only between words, a word longer
/// than the room left whole (a path or a command copied from the screen must stay one piece).
enum LineWrap {
    /// The width lines are wrapped to: a terminal's (its window size, else `COLUMNS`, else 80);
    /// nil when standard output is a pipe or a file and `COLUMNS` is not set, so that what a
    /// script reads (`healthprobe anomalies | grep …`) keeps one entry a line.
    static let width: Int? = {
        guard isatty(STDOUT_FILENO) == 1 else { return namedColumns }
        return windowColumns(of: STDOUT_FILENO) ?? namedColumns ?? 80
    }()

    /// The width of the terminal `descriptor` writes to, when it is one that says.
    static func windowColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The width `COLUMNS` names, when it names one a line can be fitted to.
    static var namedColumns: Int? {
        ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 >= 20 ? $0 : nil }
    }

    /// `text` (already shown as characters: no control codes) as lines of at most `width`
    /// characters, the first starting at column `start` (what is printed before it), every other
    /// one `indent` spaces in.
    static func lines(_ text: String, start: Int = 0, indent: Int, width: Int) -> [String] {
        let indent = String(repeating: " ", count: min(indent, width / 2))
        var lines: [String] = []
        var line = ""
        var used = start
        var lineHasWord = false
        for (spaces, word) in words(of: text) {
            if lineHasWord && used + spaces + word.count > width {
                lines.append(line)
                line = indent + word
                used = indent.count + word.count
            } else {
                line += String(repeating: " ", count: spaces) + word
                used += spaces + word.count
            }
            lineHasWord = lineHasWord || !word.isEmpty
        }
        lines.append(line)
        return lines
    }

    /// Each word of `text` with the number of spaces before it (the columns' padding kept).
    private static func words(of text: String) -> [(spaces: Int, word: Substring)] {
        var words: [(spaces: Int, word: Substring)] = []
        var spaces = 0
        var rest = text[...]
        while !rest.isEmpty {
            if rest.first == " " {
                spaces += 1
                rest = rest.dropFirst()
                continue
            }
            let word = rest.prefix { $0 != " " }
            words.append((spaces, word))
            spaces = 0
            rest = rest.dropFirst(word.count)
        }
        return words
    }
}

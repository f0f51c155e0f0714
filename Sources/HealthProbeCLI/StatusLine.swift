import Foundation

/// A progress line's text on a terminal: its pieces joined and cut to the terminal's width, so
/// that it never wraps (a wrapped line cannot be written over and leaves stale lines behind).
enum StatusLine {
    /// The terminal's columns: stderr's window size, else `COLUMNS`, else 80.
    static var columns: Int {
        LineWrap.windowColumns(of: STDERR_FILENO) ?? LineWrap.namedColumns ?? 80
    }

    /// The pieces, two spaces apart, at most `width - 1` characters (the last column left free:
    /// some terminals wrap as soon as it is written); the line's end cut with "…" when needed.
    static func fit(_ pieces: [String], width: Int = columns) -> String {
        let text = pieces.filter { !$0.isEmpty }.joined(separator: "  ")
        let room = max(width - 1, 10)
        guard text.count > room else { return text }
        return String(text.prefix(room - 1)) + "…"
    }

    /// `about 40 s left`, `about 3 min left`.
    static func timeLeft(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "" }
        if seconds < 90 { return "about \(max(1, Int(seconds.rounded(.up)))) s left" }
        return "about \(Int((seconds / 60).rounded())) min left"
    }

    /// Writes `text` over the line.
    static func show(_ text: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
    }
}

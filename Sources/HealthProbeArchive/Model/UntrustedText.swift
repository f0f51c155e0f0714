/// Text from files, people and assistants (source and device names, a backup's names, reasons,
/// settings, an export's own words), made to show as the characters it is wherever it is shown.
/// One rule per medium (docs/DESIGN.md §9, privacy): in a terminal no character moves the cursor,
/// colours, rings, ends a line or reverses what follows; in Markdown nothing renders as markup.
public enum UntrustedText {
    /// Longest a field is shown in a terminal or a report: past it, "…" and how many characters
    /// were left out.
    public static let fieldLimit = 200

    /// For a terminal: C0 and C1 control characters, DEL, line and paragraph separators and the
    /// bidirectional formatting characters (overrides, embeddings, isolates, marks) shown as
    /// escapes — `\n`, `\r`, `\t`, `\u{1B}`, `\u{202E}` — so that one field is one line of text.
    public static func terminal(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default: shown += escape(scalar)
            }
        }
        return shown
    }

    /// ``terminal(_:)`` of a field, bounded to ``fieldLimit`` characters.
    public static func field(_ text: String) -> String {
        terminal(bounded(text))
    }

    /// At most ``fieldLimit`` characters; past it, what is left out is counted.
    public static func bounded(_ text: String) -> String {
        guard text.count > fieldLimit else { return text }
        return String(text.prefix(fieldLimit)) + "… (\(text.count - fieldLimit) more characters)"
    }

    /// For Markdown text (a table cell, a list item): the characters that make markup —
    /// emphasis, links, code, HTML, entities, tables — backslash-escaped (CommonMark lets any
    /// ASCII punctuation be), so that `<script>`, `[x](javascript:…)`, `*`, `|` and `&amp;`
    /// render as the characters they are; controls as in a terminal.
    public static func markdown(_ text: String) -> String {
        var shown = ""
        for character in field(text) {
            if markup.contains(character) { shown.append("\\") }
            shown.append(character)
        }
        return shown
    }

    private static let markup: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "#", "!", "|", "~", "&"]

    /// For a Markdown code span: fenced by a run of backticks longer than any inside, so that
    /// the text cannot close it (a code span takes its content literally).
    public static func markdownCode(_ text: String) -> String {
        let shown = field(text)
        var longest = 0
        var run = 0
        for character in shown {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = shown.hasPrefix("`") || shown.hasSuffix("`") ? " \(shown) " : shown
        return fence + padded + fence
    }

    /// Whether text holds what ``terminal(_:)`` would escape: a reason or a setting holding one
    /// is refused, since it could not be shown as it was given.
    public static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnsafe)
    }

    /// For a page, whose escaping makes markup text but keeps the characters that reorder it:
    /// the bidirectional formatting characters shown as escapes (`\u{202E}`), as in a terminal,
    /// so that an override in a name cannot reverse the text after it. Names are isolated too
    /// (`<bdi>`), for right-to-left names that need no override to move a neighbour.
    public static func page(_ html: String) -> String {
        guard html.unicodeScalars.contains(where: isBidiControl) else { return html }
        var shown = ""
        for scalar in html.unicodeScalars {
            if isBidiControl(scalar) {
                shown += escape(scalar)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// `\u{202E}`: a character shown by its code point.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: isBidiControl(scalar)
        }
    }
}

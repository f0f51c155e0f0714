import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Colour on a terminal, by severity: critical in bold red, warning in yellow, info in cyan. Only
/// when standard output is a terminal, and never when `NO_COLOR` is set (no-color.org) or the
/// terminal is `dumb`: piped output and files stay plain text.
enum TerminalStyle {
    static let enabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }()

    /// Text and the severity it is coloured by (none: plain).
    struct Part {
        var text: String
        var severity: Severity?

        init(_ text: String, _ severity: Severity? = nil) {
            self.text = text
            self.severity = severity
        }
    }

    /// `text` (already safe to show) in its severity's colour.
    static func styled(_ text: String, _ severity: Severity?) -> String {
        guard enabled, let severity else { return text }
        let code =
            switch severity {
            case .critical: "1;31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}

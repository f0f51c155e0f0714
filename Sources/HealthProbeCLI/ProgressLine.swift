import Foundation
import HealthProbeKit

/// A single self-overwriting progress line on stderr, shown only when stderr is a terminal.
/// It names phases and sample types, never values.
final class ProgressLine: Sendable {
    let enabled: Bool

    init() {
        enabled = isatty(STDERR_FILENO) == 1
    }

    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        var text = "\r\u{1B}[2K\(progress.phase.rawValue)"
        if let total = progress.totalBytes, total > 0 {
            text += String(format: " %3.0f%%", min(100, Double(progress.bytesRead) * 100 / Double(total)))
        }
        text += "  \(Output.grouped(progress.records)) records"
        if progress.elapsed > 0 {
            text += String(format: "  %.0fk/s", Double(progress.records) / progress.elapsed / 1000)
        }
        if let type = progress.currentType { text += "  \(type)" }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

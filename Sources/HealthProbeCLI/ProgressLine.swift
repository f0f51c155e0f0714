import Foundation
import HealthProbeArchive
import HealthProbeKit

/// A single self-overwriting progress line on stderr, shown only when stderr is a terminal.
/// It names phases and sample types, never values.
final class ProgressLine: Sendable {
    let enabled: Bool

    init() {
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Phase and percent, records and their rate, time left, then the type being read: the
    /// type's name goes first when the terminal is narrow.
    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        var head = progress.phase.rawValue
        var fraction: Double?
        if let total = progress.totalBytes, total > 0 {
            fraction = min(1, Double(progress.bytesRead) / Double(total))
            head += String(format: " %3.0f%%", (fraction ?? 0) * 100)
        }
        var pieces = [head, "\(Output.grouped(progress.records)) records"]
        if progress.elapsed >= 1 {
            pieces.append(String(format: "%.0fk/s", Double(progress.records) / progress.elapsed / 1000))
        }
        pieces.append(
            StatusLine.timeLeft(
                fraction.flatMap { PaceEstimate.secondsLeft(fractionDone: $0, over: progress.elapsed) }))
        pieces.append(progress.currentType.map(HealthKitCatalog.displayName) ?? "")
        StatusLine.show(StatusLine.fit(pieces))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

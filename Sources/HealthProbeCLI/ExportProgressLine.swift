import Foundation
import HealthProbeKit

/// The export's progress on stderr when it is a terminal, at most once a second: the type being
/// written, records and types done, the time left. Never a value.
final class ExportProgressLine: @unchecked Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var lastShown = Date.distantPast

    func update(_ progress: ExportProgress) {
        guard enabled else { return }
        let now = Date()
        guard
            lock.withLock({
                guard now.timeIntervalSince(lastShown) >= 1 else { return false }
                lastShown = now
                return true
            })
        else { return }
        var text = "\r\u{1B}[2KExporting \(progress.currentType.map(SampleTypeCatalog.displayName) ?? "records")…"
        text += "  \(Output.grouped(progress.recordsDone)) of \(Output.grouped(progress.recordsExpected)) records"
        text += ", \(progress.typesDone) of \(progress.typesExpected) types"
        if let left = progress.estimatedSecondsLeft { text += ", about \(Int(left.rounded(.up))) s left" }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

import Foundation
import HealthProbeArchive
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
        let percent =
            progress.recordsExpected > 0 ? progress.recordsDone * 100 / progress.recordsExpected : 0
        StatusLine.show(
            StatusLine.fit([
                "Exporting \(percent)%",
                "\(Output.grouped(progress.recordsDone)) of \(Output.grouped(progress.recordsExpected)) records",
                "\(progress.typesDone) of \(progress.typesExpected) types",
                StatusLine.timeLeft(progress.estimatedSecondsLeft),
                progress.currentType.map(HealthKitCatalog.displayName) ?? "",
            ]))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

import Foundation
import HealthProbeKit

/// Turns SIGINT and SIGTERM into a cancellation while an export or a check runs: the work stops
/// within a second, leaves nothing behind, and the command exits 130 for Ctrl-C, 143 for SIGTERM
/// (128 and the signal, as shells report a signal's end).
final class InterruptCancellation: @unchecked Sendable {
    let cancellation = CancellationFlag()
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var received: Int32?

    /// `exiting`, when given, is called with the exit code at the first signal instead of
    /// cancelling: for work that cannot stop midway (a backup's key derivation), it cleans up
    /// and ends the process; the archive is left as it was by SQLite itself.
    init(exiting: (@Sendable (Int32) -> Never)? = nil) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                lock.withLock { received = received ?? signalNumber }
                if let exiting { exiting(128 + signalNumber) }
                cancellation.cancel()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The exit code for the signal that cancelled the work: 130 after Ctrl-C, 143 after SIGTERM.
    var exitCode: Int32 { 128 + (lock.withLock { received } ?? SIGINT) }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

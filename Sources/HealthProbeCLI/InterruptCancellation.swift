import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Turns SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) into a
/// cancellation while an export or a check runs: the work stops within a second, leaves nothing
/// behind — no partial export, no decrypted copy — and the command exits 128 and the signal, as
/// shells report a signal's end: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP, 131 for SIGQUIT.
///
/// The signals are caught by a handler of their own (whatever thread the kernel hands them to)
/// that writes the signal's number into a pipe; a thread reading the pipe does the rest. A
/// dispatch signal source is not enough on Linux: it reads a `signalfd` that sees a signal only
/// when every thread blocks it, and a signal handed to another thread was dropped.
final class InterruptCancellation: @unchecked Sendable {
    let cancellation = CancellationFlag()
    private let lock = NSLock()
    private var received: Int32?
    private var exiting: (@Sendable (Int32) -> Never)?

    /// `exiting`, when given, is called with the exit code at the first signal instead of
    /// cancelling: for work that cannot stop midway (a backup's key derivation), it cleans up
    /// and ends the process; the archive is left as it was by SQLite itself.
    init(exiting: (@Sendable (Int32) -> Never)? = nil) {
        self.exiting = exiting
        SignalPipe.shared.listen { [weak self] signalNumber in self?.receive(signalNumber) }
    }

    private func receive(_ signalNumber: Int32) {
        let exiting = lock.withLock {
            received = received ?? signalNumber
            return self.exiting
        }
        if let exiting { exiting(128 + signalNumber) }
        cancellation.cancel()
    }

    /// From now on a signal cancels the work instead of ending the process: for work that
    /// turned out to be able to stop midway (an export's check, once it is open).
    func cancelInsteadOfExiting() {
        lock.withLock { exiting = nil }
    }

    /// The exit code for the signal that cancelled the work: 128 and the signal (130 after Ctrl-C).
    var exitCode: Int32 { 128 + (lock.withLock { received } ?? SIGINT) }

    deinit {
        SignalPipe.shared.stopListening()
    }
}

/// The write end of the signal pipe, for the handler: a signal handler may only call what is
/// safe in one (`write`), and reads a plain global.
nonisolated(unsafe) private var signalPipeInput: Int32 = -1

private func forwardSignal(_ signalNumber: Int32) {
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(signalPipeInput, &byte, 1)
}

/// One pipe and one reader thread for the process, made at the first listener.
private final class SignalPipe: @unchecked Sendable {
    static let shared = SignalPipe()
    private let lock = NSLock()
    private var listener: (@Sendable (Int32) -> Void)?

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipeInput = ends[1]
        let output = ends[0]
        let reader = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(output, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                let listener = lock.withLock { self.listener }
                listener?(Int32(byte))
            }
        }
        reader.name = "healthprobe-signals"
        reader.start()
    }

    func listen(_ handler: @escaping @Sendable (Int32) -> Void) {
        lock.withLock { listener = handler }
        for signalNumber in Self.signals { signal(signalNumber, forwardSignal) }
    }

    func stopListening() {
        lock.withLock { listener = nil }
        for signalNumber in Self.signals { signal(signalNumber, SIG_DFL) }
    }

    /// Each ends the work as Ctrl-C does: a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT, whose
    /// default would dump core with the decrypted data still on disk) included.
    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
}

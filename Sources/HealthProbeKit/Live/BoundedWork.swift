import HealthProbeArchive
import Synchronization

/// Work the system gives a limited time (a background wake, a refresh task): cancelled when its
/// time runs out, so that the caller can report back before the system gives up on it. A
/// monitor's check stops within milliseconds of a cancellation and keeps what it did (the next
/// one resumes), so cutting it short loses nothing.
///
/// The caller is never held past the time and a short grace: work that does not stop when
/// cancelled (a framework call that cannot be cancelled) is left to finish on its own, and the
/// caller still reports back in time.
public enum BoundedWork {
    /// How the work ended.
    public enum Outcome: Sendable, Equatable {
        /// It returned within its time.
        case finished
        /// It was cancelled when its time ran out, and returned within the grace.
        case cutShort
        /// It was cancelled and had not returned when the grace ran out: left running.
        case abandoned
    }

    /// How long cancelled work is waited on before the caller goes on without it.
    public static let grace = 2.0

    /// Runs `work`, cancelling it after `seconds` (or when the calling task is cancelled);
    /// returns once it has returned, or `grace` seconds after cancelling it.
    @discardableResult
    public static func run(
        within seconds: Double, grace: Double = Self.grace, _ work: @escaping @Sendable () async -> Void
    ) async -> Outcome {
        let ending = Ending()
        let worker = Task {
            await work()
            ending.settle(.finished)
        }
        // Cancels the work, then waits the grace out whether or not the caller is cancelled too.
        let cutShort: @Sendable () -> Void = {
            worker.cancel()
            guard ending.cancel() else { return }
            Task {
                try? await Task.sleep(nanoseconds: nanoseconds(grace))
                ending.settle(.abandoned)
            }
        }
        let timer = Task {
            guard (try? await Task.sleep(nanoseconds: nanoseconds(seconds))) != nil else { return }
            cutShort()
        }
        let outcome = await withTaskCancellationHandler {
            await ending.outcome()
        } onCancel: {
            cutShort()
        }
        timer.cancel()
        return outcome
    }

    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, seconds) * 1_000_000_000)
    }

    /// The first ending is kept: the work returning, or the grace running out.
    private final class Ending: Sendable {
        private struct State {
            var waiting: CheckedContinuation<Outcome, Never>?
            var outcome: Outcome?
            var cancelled = false
        }
        private let state = Mutex(State())

        /// Marks the work cancelled; false when it was already, or has ended.
        func cancel() -> Bool {
            state.withLock { state in
                defer { state.cancelled = true }
                return !state.cancelled && state.outcome == nil
            }
        }

        func settle(_ ending: Outcome) {
            let (waiting, outcome) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, Outcome) in
                if let settled = state.outcome { return (nil, settled) }
                let outcome = ending == .finished && state.cancelled ? .cutShort : ending
                state.outcome = outcome
                defer { state.waiting = nil }
                return (state.waiting, outcome)
            }
            waiting?.resume(returning: outcome)
        }

        func outcome() async -> Outcome {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state in
                    if state.outcome == nil { state.waiting = continuation }
                    return state.outcome
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}

import Synchronization

/// An answer from a framework that calls back (a HealthKit query), awaited so that a
/// cancellation ends the wait at once and stops what was started: a background task's expiry
/// must not wait on a query that would run on without it.
///
/// `begin` starts the work, hands `reply` to its callback, and returns how to stop it. The first
/// of the reply and the cancellation wins; what comes after it is ignored. A wait cancelled
/// before it began never calls `begin`.
public enum StoppableAnswer {
    public static func wait<Value: Sendable>(
        _ begin: (_ reply: @escaping @Sendable (Result<Value, any Error>) -> Void) -> (@Sendable () -> Void)
    ) async throws -> Value {
        let pending = Pending<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard pending.hold(continuation) else { return }
                pending.started(stop: begin { result in pending.finish(result) })
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// One wait's state, shared by the waiting task, the framework's callback and the
    /// cancellation handler, which may run on three threads at once.
    final class Pending<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var stop: (@Sendable () -> Void)?
            var cancelled = false
            var stopped = false
        }
        private let state = Mutex(State())

        /// Keeps the continuation; false (and it is resumed with a cancellation) when the wait
        /// was cancelled before it began.
        func hold(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
            let cancelled = state.withLock { state in
                if !state.cancelled { state.continuation = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        /// The work began: how to stop it, called at once if a cancellation came meanwhile.
        func started(stop: @escaping @Sendable () -> Void) {
            let stopNow = state.withLock { state in
                if state.cancelled && !state.stopped {
                    state.stopped = true
                    return true
                }
                state.stop = stop
                return false
            }
            if stopNow { stop() }
        }

        func finish(_ result: Result<Value, any Error>) {
            let waiting = state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume(with: result)
        }

        func cancel() {
            let (waiting, stop) = state.withLock { state in
                state.cancelled = true
                defer {
                    state.continuation = nil
                    state.stop = nil
                }
                let stop = state.stopped || state.continuation == nil ? nil : state.stop
                if stop != nil { state.stopped = true }
                return (state.continuation, stop)
            }
            waiting?.resume(throwing: CancellationError())
            stop?()
        }
    }
}

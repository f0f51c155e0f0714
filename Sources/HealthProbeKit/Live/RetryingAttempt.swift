/// Something made once, which may fail: the callers waiting at the same time share one attempt,
/// a success is kept, and a failure is forgotten so that the next call tries again. The phone's
/// launch opens the archive this way: one failure (a full disk, a file protection not yet lifted
/// after a restart) must not leave the app unusable until the process ends; the next wake, the
/// next background task or the launch screen's "Try again" tries anew.
@MainActor
public final class RetryingAttempt<Value: Sendable> {
    private let make: @MainActor () async throws -> Value
    private var made: Value?
    private var running: Task<Value, any Error>?
    /// The last attempt's failure, until an attempt succeeds.
    public private(set) var lastFailure: (any Error)?
    /// How many attempts were started.
    public private(set) var attempts = 0

    public init(_ make: @escaping @MainActor () async throws -> Value) {
        self.make = make
    }

    /// The value, made now if no attempt succeeded yet, or the running attempt's.
    public func value() async throws -> Value {
        if let made { return made }
        let attempt: Task<Value, any Error>
        if let running {
            attempt = running
        } else {
            let make = make
            attempt = Task { @MainActor in try await make() }
            running = attempt
            attempts += 1
        }
        do {
            let value = try await attempt.value
            made = value
            lastFailure = nil
            if running == attempt { running = nil }
            return value
        } catch {
            if running == attempt {
                running = nil
                lastFailure = error
            }
            throw error
        }
    }
}

import HealthProbeArchive

/// Work the system gives a limited time (a background wake, a refresh task): cancelled when its
/// time runs out, so that the caller can report back before the system gives up on it. A
/// monitor's check stops within milliseconds of a cancellation and keeps what it did (the next
/// one resumes), so cutting it short loses nothing.
public enum BoundedWork {
    /// Runs `work`, cancelling it after `seconds`; returns once it has returned.
    public static func run(within seconds: Double, _ work: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000)) }
            await group.next()
            group.cancelAll()
        }
    }
}

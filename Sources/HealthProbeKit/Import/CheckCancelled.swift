import HealthProbeArchive

/// A check stopped at the user's request (Ctrl-C, SIGTERM) before it completed: its transaction is
/// rolled back, so the archive is as it was before the check began.
public struct CheckCancelled: Error, Sendable, CustomStringConvertible {
    public init() {}

    public var description: String { "check cancelled; nothing was written" }
}

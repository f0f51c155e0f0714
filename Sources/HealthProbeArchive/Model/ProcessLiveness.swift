#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the process that noted a running export still runs.
package enum ProcessLiveness {
    /// `kill(pid, 0)` delivers nothing and fails with `ESRCH` only when no such process exists;
    /// any other answer (alive, or not ours to signal) counts as alive. A process id taken again
    /// by another process after a crash keeps its export `running` until that one ends too.
    package static func isAlive(_ pid: Int32?) -> Bool {
        guard let pid, pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}

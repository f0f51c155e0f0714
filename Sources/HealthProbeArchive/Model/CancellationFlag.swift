import Foundation

/// A flag another thread sets to stop long work (an export, a live check's completion); the
/// work notices within a few thousand rows.
public final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.withLock { cancelled = true }
    }

    public var isCancelled: Bool { lock.withLock { cancelled } }
}

import Foundation
import HealthProbeKit

/// A clock that moves only when told: the demo's days and the tests' timelines.
public final class SimulatedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date) {
        current = start
    }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: Double) {
        lock.withLock { current += seconds }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }

    /// A closure for ``HealthMonitor``'s clock.
    public var reading: @Sendable () -> Date { { [self] in now } }
}

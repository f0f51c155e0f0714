import Foundation

/// A bounded hand-off between pipeline threads: a producer blocks when its consumer falls
/// behind, so memory stays flat whatever the export's size.
public final class BatchChannel<Element: Sendable>: @unchecked Sendable {
    public struct Cancelled: Error {
        public init() {}
    }

    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// Blocks while full; throws once the receiver has cancelled.
    public func send(_ item: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        items.append(item)
        condition.broadcast()
    }

    /// Blocks until an item arrives; nil once the sender has closed and everything was taken.
    public func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && !cancelled { condition.wait() }
        if items.isEmpty { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// The next item if one is waiting, without blocking; nil otherwise.
    public func poll() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    public func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

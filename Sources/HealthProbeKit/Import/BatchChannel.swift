import Foundation

/// A bounded hand-off between the parser thread and the writer: the parser blocks when the
/// writer falls behind, so memory stays flat whatever the export's size.
final class BatchChannel<Element: Sendable>: @unchecked Sendable {
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Blocks while full; throws once the receiver has cancelled.
    func send(_ item: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        items.append(item)
        condition.broadcast()
    }

    /// Blocks until an item arrives; nil once the sender has closed and everything was taken.
    func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && !cancelled { condition.wait() }
        if items.isEmpty { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

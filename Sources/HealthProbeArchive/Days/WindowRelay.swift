import Foundation

/// Windows of day figures read by several readers at once, handed over in window order by the
/// thread that asked (``ParallelDayFigures``): reader r reads windows r, r + readers, …, waiting
/// while it is more than ``ParallelDayFigures/windowsAhead`` rounds ahead of what was handed over,
/// so that memory holds a few windows at most. The first failure ends every reader; so does the
/// asker's own, or archives seen differently by the readers' transactions.
final class WindowRelay: @unchecked Sendable {
    enum Outcome { case handedOver, archiveMoved }

    private let condition = NSCondition()
    private let windows: Int
    private let readers: Int
    // Guarded by `condition`:
    private var generations: [[Int64]?]
    private var read: [Int: [DayFigure]] = [:]
    private var failure: (any Error)?
    private var handedOver = 0
    private var stopped = false
    private var running: Int

    init(windows: Int, readers: Int) {
        self.windows = windows
        self.readers = readers
        generations = Array(repeating: nil, count: readers)
        running = readers
    }

    /// Reader `reader`'s whole part, `body`: its failure ends every reader's.
    func reading(as reader: Int, _ body: () throws -> Void) {
        defer { locked { running -= 1 } }
        do {
            try body()
        } catch {
            locked {
                if failure == nil { failure = error }
                stopped = true
            }
        }
    }

    /// What reader `reader`'s transaction sees (``ParallelDayFigures``' generation).
    func began(_ reader: Int, seeing generation: [Int64]) {
        locked { generations[reader] = generation }
    }

    /// Reads reader `reader`'s windows with `readWindow`, each once it is close enough to what
    /// was handed over, until they are all read or the reading stops.
    func readWindows(of reader: Int, _ readWindow: (Int) throws -> [DayFigure]) throws {
        var window = reader
        while window < windows, waitForRoom(window) {
            let figures = try readWindow(window)
            locked { read[window] = figures }
            window += readers
        }
    }

    /// Hands every window's figures to `body` in order, once every reader's transaction began on
    /// the same archive; returns once every reader is done.
    func hand(to body: ([DayFigure]) throws -> Void) throws -> Outcome {
        condition.lock()
        defer {
            stopped = true
            condition.broadcast()
            while running > 0 { condition.wait() }
            condition.unlock()
        }
        while failure == nil, generations.contains(where: { $0 == nil }), running == readers { condition.wait() }
        if let failure { throw failure }
        let seen = generations.compactMap { $0 }
        guard seen.count == readers, Set(seen).count == 1 else { return .archiveMoved }
        for window in 0..<windows {
            while read[window] == nil, failure == nil { condition.wait() }
            if let failure { throw failure }
            let figures = read.removeValue(forKey: window) ?? []
            handedOver = window + 1
            condition.broadcast()
            condition.unlock()
            defer { condition.lock() }
            try body(figures)
        }
        return .handedOver
    }

    /// Waits until `window` is close enough to what was handed over; false once stopped.
    private func waitForRoom(_ window: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, window >= handedOver + readers * ParallelDayFigures.windowsAhead { condition.wait() }
        return !stopped
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}

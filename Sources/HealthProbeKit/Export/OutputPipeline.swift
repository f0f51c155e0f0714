import AppleHealthExport
import Foundation
import HealthProbeArchive

/// Hands filled chunks from the thread that formats records to one that encrypts, hashes and
/// writes them, so that the two cores share an export. At most `capacity` chunks wait; the
/// producer blocks past that, which bounds memory. ``finish()`` returns only once the worker
/// thread has ended, so no thread outlives the export.
final class OutputPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    private var closed = false
    private var failure: (any Error)?
    private let capacity: Int
    private var thread: JoinableThread?
    private var stage: (([UInt8]) throws -> Void)?
    private var joined = false

    init(capacity: Int = 4, stage: @escaping ([UInt8]) throws -> Void) {
        self.capacity = capacity
        self.stage = stage
        thread = JoinableThread(name: "healthprobe.export-writer") { [self] in
            run()
        }
    }

    /// Queues a chunk; throws what the worker failed with, if it did.
    func send(_ chunk: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// Waits for every queued chunk to be written, then for the thread to end.
    func finish() throws {
        close(discarding: false)
        join()
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
    }

    /// Drops what is queued and waits for the thread to end: a cancelled or failed export.
    func abandon() {
        close(discarding: true)
        join()
    }

    /// Waits for the worker thread to end; at once when it already has (a failed `finish`
    /// is followed by an `abandon`).
    private func join() {
        condition.lock()
        let waited = joined
        joined = true
        condition.unlock()
        if !waited { thread?.join() }
    }

    private func close(discarding: Bool) {
        condition.lock()
        closed = true
        if discarding { chunks.removeAll() }
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while chunks.isEmpty && !closed { condition.wait() }
            if chunks.isEmpty {
                condition.unlock()
                break
            }
            let chunk = chunks.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                try stage?(chunk)
            } catch {
                condition.lock()
                failure = error
                chunks.removeAll()
                condition.broadcast()
                condition.unlock()
                break
            }
        }
        stage = nil
    }
}

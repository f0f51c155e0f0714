import AppleHealthExport
import HealthProbeArchive

/// Elements handed from the parser to the fingerprinting thread, which takes each one out
/// rather than copying it: an `Array` only hands out copies, and each copy retains, then
/// releases, every string of the element — strings the parser's thread made, so on another core.
/// Owned by one thread at a time: filled by the parser, sent, then drained.
final class ElementBatch: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<AppleExportElement>
    private(set) var count = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// An ECG recording holds its voltages (120 KB for 30 seconds): a batch with one is sent at
    /// once, so that the batches in flight never hold hundreds of them.
    private var holdsRecording = false

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == capacity || holdsRecording }

    func append(_ element: consuming AppleExportElement) {
        precondition(count < capacity, "ElementBatch is full")
        if case .electrocardiogram = element { holdsRecording = true }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Hands over every element in order; the batch is empty afterwards, also when `body` throws.
    func drain(_ body: (consuming AppleExportElement) throws -> Void) rethrows {
        var next = 0
        defer {
            (storage + next).deinitialize(count: count - next)
            count = 0
            holdsRecording = false
        }
        while next < count {
            let element = (storage + next).move()
            next += 1
            try body(element)
        }
    }
}

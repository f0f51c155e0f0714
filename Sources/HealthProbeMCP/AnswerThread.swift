import Foundation

/// One thread that answers every question, one at a time. The SDK calls its handlers on whichever
/// thread of the cooperative pool is free; with glibc each of them allocates from an arena of its
/// own, and ten questions of three months' figures left the server at 79–81 MB where one took
/// 54 MB. Answered here, the archive's reading keeps to one arena: 73–74 MB, no slower.
final class AnswerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var work: [() -> Void] = []

    init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "healthprobe-mcp-answers"
        thread.start()
    }

    /// Runs `body` on the answering thread and returns what it returned or threw.
    func answer<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            condition.withLock {
                work.append { continuation.resume(with: Result { try body() }) }
                condition.signal()
            }
        }
    }

    private func run() {
        while true {
            let next: () -> Void = condition.withLock {
                while work.isEmpty { condition.wait() }
                return work.removeFirst()
            }
            next()
        }
    }
}

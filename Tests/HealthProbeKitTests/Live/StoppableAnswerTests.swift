import Foundation
import Testing

@testable import HealthProbeKit

/// A framework's callback awaited so that a cancellation ends the wait and stops the work: the
/// HealthKit queries (anchored changes, statistics, an ECG's voltages) wait this way.
@Suite("Stoppable answer")
struct StoppableAnswerTests {
    /// What a fake framework call saw: started, stopped, and the reply it was handed.
    final class FakeQuery: @unchecked Sendable {
        private let lock = NSLock()
        private var reply: (@Sendable (Result<Int, any Error>) -> Void)?
        private(set) var starts = 0
        private(set) var stops = 0

        func begin(_ reply: @escaping @Sendable (Result<Int, any Error>) -> Void) -> @Sendable () -> Void {
            lock.withLock {
                starts += 1
                self.reply = reply
            }
            return { self.lock.withLock { self.stops += 1 } }
        }

        func answer(_ result: Result<Int, any Error>) {
            lock.withLock { reply }?(result)
        }

        var counts: (starts: Int, stops: Int) { lock.withLock { (starts, stops) } }
    }

    struct Refused: Error {}

    @Test func theAnswerIsReturned() async throws {
        let query = FakeQuery()
        let value = try await StoppableAnswer.wait { reply in
            let stop = query.begin(reply)
            reply(.success(7))
            return stop
        }
        #expect(value == 7)
        #expect(query.counts == (1, 0))
    }

    @Test func anErrorIsThrown() async {
        let query = FakeQuery()
        await #expect(throws: Refused.self) {
            try await StoppableAnswer.wait { reply in
                defer { reply(.failure(Refused())) }
                return query.begin(reply)
            }
        }
    }

    /// A query that never answers: the cancellation ends the wait and stops it once; its late
    /// answer is ignored (a second resume would crash).
    @Test(.timeLimit(.minutes(10))) func aCancellationStopsAQueryThatNeverAnswers() async throws {
        let query = FakeQuery()
        let waiting = Task { try await StoppableAnswer.wait { reply in query.begin(reply) } }
        while query.counts.starts == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(query.counts == (1, 1))
        query.answer(.success(1))
        #expect(query.counts == (1, 1))
    }

    /// A wait cancelled before it began never starts the query.
    @Test func aWaitCancelledFirstNeverStarts() async {
        let query = FakeQuery()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await StoppableAnswer.wait { reply in query.begin(reply) }
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(query.counts == (0, 0))
    }

    /// An answer that came first is kept: a cancellation after it stops nothing.
    @Test func aCancellationAfterTheAnswerStopsNothing() async throws {
        let query = FakeQuery()
        let waiting = Task {
            try await StoppableAnswer.wait { reply in
                let stop = query.begin(reply)
                reply(.success(3))
                return stop
            }
        }
        #expect(try await waiting.value == 3)
        waiting.cancel()
        #expect(query.counts == (1, 0))
    }
}

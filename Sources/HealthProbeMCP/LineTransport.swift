import Foundation
import Logging
import MCP

/// The assistant's stdio, one JSON-RPC message a line, in place of the SDK's `StdioTransport`,
/// which sleeps mid-message when the pipe is full (another answer then writes into the middle of
/// it) and searches a long line from its start at every read (1 MB took 1.5 s, 100 MB never ended).
///
/// - One writer owns standard output: each message is written whole, in the order it was sent,
///   by a serial queue that blocks while the assistant's end of the pipe is full.
/// - One reader thread reads standard input in blocking reads, looks for a line's end only in the
///   bytes it has not looked at, and refuses a request longer than ``maximumRequestBytes`` (its
///   bytes are skipped to the next line; the answer says why).
/// - Each line is screened (``RequestScreening``) before the SDK sees it, so that what JSON-RPC 2.0
///   says to answer with an error is answered so, with the request's id or null.
actor LineTransport: Transport {
    /// The largest request read: an assistant's questions are a few hundred bytes.
    static let maximumRequestBytes = 1 << 20
    /// How long, after the assistant has closed its end, answers still owed are waited for.
    static let answerGrace: TimeInterval = 60

    nonisolated let logger = Logger(label: "healthprobe.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    private let input: Int32
    private let writer: LineWriter
    private let owed = OwedAnswers()
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var connected = false

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        writer = LineWriter(descriptor: output)
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !connected else { return }
        connected = true
        let reader = LineReader(
            descriptor: input, maximumLineBytes: Self.maximumRequestBytes, continuation: continuation,
            writer: writer, owed: owed)
        let thread = Thread { reader.run() }
        thread.name = "healthprobe-mcp-stdin"
        thread.start()
    }

    func disconnect() async {
        connected = false
        continuation.finish()
    }

    /// Queues `message` to be written whole after every message sent before it; once the
    /// assistant has closed its end and this was the last answer owed, the server may end.
    func send(_ message: Data) async throws {
        writer.write(message)
        if owed.answered(RequestScreening.answeredIDs(message)) { continuation.finish() }
    }

    func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    /// Returns once everything sent has been written.
    func drain() {
        writer.drain()
    }
}

/// The one writer of standard output: whole lines, in order, on a serial queue that blocks while
/// the assistant's end of the pipe is full.
private final class LineWriter: Sendable {
    let descriptor: Int32
    private let queue = DispatchQueue(label: "healthprobe.mcp.stdout")

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ message: Data) {
        var line = message
        line.append(UInt8(ascii: "\n"))
        let whole = line
        let descriptor = descriptor
        queue.async { Self.writeAll(whole, to: descriptor) }
    }

    func drain() {
        queue.sync {}
    }

    /// Writes every byte, through short writes and interruptions; gives up only when the
    /// assistant has closed its end (then there is no one to answer).
    private static func writeAll(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// The requests read and not yet answered, by id: when the assistant closes its end, the server
/// ends only after answering them (or after a grace period), so no answer is lost at the end.
private final class OwedAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var owed: [String: Int] = [:]
    private var inputEnded = false

    func asked(_ ids: [String]) {
        lock.withLock { for id in ids { owed[id, default: 0] += 1 } }
    }

    /// Whether the server may end now: the input has ended and nothing more is owed.
    func answered(_ ids: [String]) -> Bool {
        lock.withLock {
            for id in ids {
                guard let count = owed[id] else { continue }
                owed[id] = count > 1 ? count - 1 : nil
            }
            return inputEnded && owed.isEmpty
        }
    }

    func endInput() -> Bool {
        lock.withLock {
            inputEnded = true
            return owed.isEmpty
        }
    }
}

/// Splits standard input into lines in time linear in its length, screening each.
private final class LineReader: @unchecked Sendable {
    let descriptor: Int32
    let maximumLineBytes: Int
    let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// Where the screening's own answers (errors) go, bypassing the SDK.
    let writer: LineWriter
    let owed: OwedAnswers

    init(
        descriptor: Int32, maximumLineBytes: Int, continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        writer: LineWriter, owed: OwedAnswers
    ) {
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
        self.continuation = continuation
        self.writer = writer
        self.owed = owed
    }

    func run() {
        var pending: [UInt8] = []
        var skippingLongLine = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            // Only the bytes just read are searched: what is pending has no line end in it.
            while let end = chunk[start..<count].firstIndex(of: UInt8(ascii: "\n")) {
                if skippingLongLine {
                    skippingLongLine = false
                } else if pending.count + (end - start) > maximumLineBytes {
                    refuseLongLine()
                } else {
                    pending.append(contentsOf: chunk[start..<end])
                    deliver(pending)
                }
                pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
                start = end + 1
            }
            guard !skippingLongLine else { continue }
            if pending.count + (count - start) > maximumLineBytes {
                refuseLongLine()
                pending.removeAll()
                skippingLongLine = true
            } else {
                pending.append(contentsOf: chunk[start..<count])
            }
        }
        if !pending.isEmpty && !skippingLongLine { deliver(pending) }
        if owed.endInput() {
            continuation.finish()
        } else {
            let continuation = continuation
            DispatchQueue.global().asyncAfter(deadline: .now() + LineTransport.answerGrace) { continuation.finish() }
        }
    }

    private func deliver(_ line: [UInt8]) {
        // A line of white space (a blank line between messages, a CR) is nothing.
        guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { return }
        switch RequestScreening.screen(line) {
        case .pass(let ids):
            owed.asked(ids)
            continuation.yield(Data(line))
        case .answer(let error): writer.write(error)
        case .ignore: break
        }
    }

    private func refuseLongLine() {
        writer.write(
            RequestScreening.error(
                id: nil, code: -32600,
                message:
                    "Invalid Request: a request may be at most \(maximumLineBytes >> 20) MiB; this one was not read"))
    }
}

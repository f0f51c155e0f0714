import Foundation

/// Reads (and inflates) a source on its own thread, a few chunks ahead of the parser, so that
/// decompression and parsing use both cores.
enum ReadAhead {
    private enum Chunk: Sendable {
        case bytes([UInt8])
        case failed(any Error)
    }

    /// Streams `source` through a reading thread; chunks arrive in order on the calling thread.
    static func stream(_ source: ExportSource, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let channel = BatchChannel<Chunk>(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try source.streamBytes { try channel.send(.bytes(Array($0))) }
            } catch is BatchChannel<Chunk>.Cancelled {
            } catch {
                try? channel.send(.failed(error))
            }
            channel.close()
            done.signal()
        }
        thread.name = "healthprobe.reader"
        thread.start()
        defer {
            channel.cancel()
            done.wait()
        }
        while let chunk = channel.receive() {
            switch chunk {
            case .bytes(let bytes): try bytes.withUnsafeBytes { try consume($0) }
            case .failed(let error): throw error
            }
        }
    }
}

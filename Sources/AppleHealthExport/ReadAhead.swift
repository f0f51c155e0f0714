import Foundation

/// Reads, inflates and filters a source on its own thread, a few chunks ahead of the parser, so
/// that decompression, the byte filter and parsing use both cores.
enum ReadAhead {
    private enum Chunk: Sendable {
        /// Filtered bytes, and the uncompressed bytes read so far.
        case bytes([UInt8], read: Int64)
        /// The root element's name, sent once, before any bytes.
        case root(String)
        case finished(DocumentFilter)
        case failed(any Error)
    }

    /// Streams `source` through ``DocumentFilter`` on a reading thread. The filtered chunks
    /// arrive in order on the calling thread; `root` is called with the root element's name
    /// before the first chunk. Returns the filter's final state.
    static func stream(
        _ source: AppleExportSource, root: (String) throws -> Void,
        _ consume: (UnsafeRawBufferPointer, Int64) throws -> Void
    ) throws -> DocumentFilter {
        let channel = BatchChannel<Chunk>(capacity: 4)
        let thread = JoinableThread(name: "healthprobe.reader") {
            readAndFilter(source, into: channel)
        }
        defer {
            channel.cancel()
            thread.join()
        }
        while let chunk = channel.receive() {
            switch chunk {
            case .bytes(let bytes, let read): try bytes.withUnsafeBytes { try consume($0, read) }
            case .root(let name): try root(name)
            case .finished(let filter): return filter
            case .failed(let error): throw error
            }
        }
        throw BatchChannel<Chunk>.Cancelled()
    }

    private static func readAndFilter(_ source: AppleExportSource, into channel: BatchChannel<Chunk>) {
        var filter = DocumentFilter()
        var read: Int64 = 0
        var output: [UInt8] = []
        func send() throws {
            guard !output.isEmpty else { return }
            try channel.send(.bytes(output, read: read))
            output = []
        }
        do {
            var rootSent = false
            try source.streamBytes { chunk in
                read += Int64(chunk.count)
                try filter.process(chunk) { output.append(contentsOf: $0) }
                if !rootSent, let name = filter.rootName {
                    try channel.send(.root(name))
                    rootSent = true
                }
                try send()
            }
            try filter.finish { output.append(contentsOf: $0) }
            if !rootSent, let name = filter.rootName { try channel.send(.root(name)) }
            try send()
            try channel.send(.finished(filter))
        } catch is BatchChannel<Chunk>.Cancelled {
        } catch {
            try? channel.send(.failed(error))
        }
        channel.close()
    }
}

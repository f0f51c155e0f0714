import Crypto
import Foundation
import HealthProbeArchive

/// Writes bytes to an open file, hashing them as they go (the manifest's checksum), through the
/// encryptor first when the export is encrypted. Full disks and other write errors surface as
/// ``ExportFailure/failed(problem:)``.
final class ExportFileWriter {
    private let descriptor: Int32
    private var hasher = SHA256()
    private(set) var bytesWritten: Int64 = 0
    private var encryptor: StreamingEncryptor?

    init(descriptor: Int32, password: [UInt8]?, iterations: UInt32) throws {
        self.descriptor = descriptor
        if let password {
            encryptor = try StreamingEncryptor(password: password, iterations: iterations) { [unowned self] bytes in
                try writeOut(bytes)
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let encryptor {
            try encryptor.write(bytes)
        } else {
            try writeOut(bytes)
        }
    }

    /// Ends the stream (the encryptor's last segment) and returns the file's SHA-256.
    func finish() throws -> String {
        try encryptor?.finish()
        encryptor = nil
        return HexText.encode(Array(hasher.finalize()))
    }

    private func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bufferPointer: bytes)
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                // A pipe whose reader is gone (`| head`); the command line ignores SIGPIPE for it.
                if errno == EPIPE { throw ExportFailure.readerStoppedEarly }
                throw ExportFailure.failed(problem: String(cString: strerror(errno)))
            }
            offset += written
        }
        bytesWritten += Int64(bytes.count)
    }
}

/// The formatting side of a text export: records are appended to `buffer`, which goes to the
/// writer thread a megabyte at a time.
final class AppleExportByteStream {
    static let chunkSize = 1 << 20
    var buffer: [UInt8] = []
    private let pipeline: OutputPipeline

    convenience init(writer: ExportFileWriter) {
        self.init { chunk in try chunk.withUnsafeBytes { try writer.write($0) } }
    }

    /// Chunks go to `stage` on the writer thread, in order.
    init(stage: @escaping ([UInt8]) throws -> Void) {
        pipeline = OutputPipeline(stage: stage)
        buffer.reserveCapacity(Self.chunkSize + (1 << 16))
    }

    /// Sends the buffer on once it holds a chunk.
    func flushIfFull() throws {
        if buffer.count >= Self.chunkSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let chunk = buffer
        buffer.removeAll(keepingCapacity: true)
        try pipeline.send(chunk)
    }

    /// Sends what is left and waits until everything is written.
    func finish() throws {
        do {
            try flush()
        } catch {
            pipeline.abandon()
            throw error
        }
        try pipeline.finish()
    }

    func abandon() {
        pipeline.abandon()
    }
}

extension ExportFormat {
    /// The extension a file of this format is named with (the archive records formats; naming
    /// files is the exporter's).
    public var fileExtension: String { self == .appleHealth ? "zip" : rawValue }
}

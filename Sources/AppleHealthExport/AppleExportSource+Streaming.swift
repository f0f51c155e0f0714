import CZlibShim
import Foundation
import ZIPFoundation

extension AppleExportSource {
    /// Thrown by a consumer to stop streaming early; not an error.
    struct StopStreaming: Error {}

    /// Bytes read (or inflated) at a time. A few chunks wait between the reading thread and the
    /// parser (see ``ReadAhead``), beside the zip's own buffers of this size: 256 KiB rather than
    /// 1 MiB took an import's peak from 64 to 54 MB at 1M records and from 68 to 59 MB at 5M, at
    /// a speed within this machine's noise (BENCHMARKS.md, "Import memory", 2026-11-25).
    static let chunkSize = 1 << 18

    /// Streams the main XML's bytes, uncompressed, in chunks. Zip entries are inflated in memory
    /// with their size capped and their CRC checked.
    public func streamBytes(_ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch container {
        case .file(let url):
            try Self.streamFile(url, consume)
        case .bytes(let bytes, _):
            try bytes.withUnsafeBytes { all in
                var offset = 0
                repeat {
                    let end = min(offset + Self.chunkSize, all.count)
                    try consume(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                    offset = end
                } while offset < all.count
            }
        case .zip(let archiveURL, let entryPath):
            try streamZipEntry(archiveURL, entryPath: entryPath, consume)
        }
    }

    static func streamFile(_ url: URL, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let file = fopen(url.path, "rb") else {
            throw AppleExportError.unreadable(file: url.lastPathComponent, problem: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = fread(buffer.baseAddress, 1, chunkSize, file)
            if count > 0 { try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
            if count < chunkSize {
                if ferror(file) != 0 {
                    throw AppleExportError.unreadable(file: url.lastPathComponent, problem: "read error")
                }
                return
            }
        }
    }

    private func streamZipEntry(
        _ archiveURL: URL, entryPath: String, _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let name = archiveURL.lastPathComponent
        let archive = try Archive(url: archiveURL, accessMode: .read)
        guard let entry = archive[entryPath] else {
            throw AppleExportError.corruptZip(file: name, problem: "the entry \(entryPath) disappeared")
        }
        try streamZipEntry(entry, of: archive, named: name, consume)
    }

    /// Inflates one entry with its size capped and its CRC checked.
    func streamZipEntry(
        _ entry: Entry, of archive: Archive, named name: String, _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let entryPath = entry.path
        let cap = limits.cap(compressedSize: Int64(clamping: entry.compressedSize))
        let declared = Int64(clamping: entry.uncompressedSize)
        var total: Int64 = 0
        var consumerError: (any Error)?
        // The CRC is computed here with zlib rather than by ZIPFoundation's Swift table loop.
        var crc: UInt = 0
        // Small entries (thousands of GPX routes) get small buffers: ZIPFoundation allocates one
        // per call.
        let bufferSize = Int(clamping: min(UInt64(Self.chunkSize), max(entry.compressedSize, 4_096)))
        do {
            _ = try archive.extract(entry, bufferSize: bufferSize, skipCRC32: true) { data in
                total += Int64(data.count)
                data.withUnsafeBytes { bytes in
                    crc = CZlibShim.crc32(
                        crc, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
                }
                if total > cap { throw AppleExportError.tooLarge(file: name, limitBytes: cap) }
                if total > declared {
                    throw AppleExportError.corruptZip(
                        file: name, problem: "\(entryPath) is longer than its directory says")
                }
                do {
                    try data.withUnsafeBytes { try consume($0) }
                } catch {
                    consumerError = error
                    throw StopStreaming()
                }
            }
        } catch let error as AppleExportError {
            throw error
        } catch {
            if let consumerError { throw consumerError }
            throw AppleExportError.corruptZip(file: name, problem: "\(entryPath) does not inflate (\(error))")
        }
        guard total == declared else {
            throw AppleExportError.corruptZip(file: name, problem: "\(entryPath) is truncated")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.checksum else {
            throw AppleExportError.corruptZip(file: name, problem: "\(entryPath) fails its CRC check")
        }
    }

    /// Reads just enough of the main XML to name its root element.
    /// The document's first `count` bytes (fewer when it is shorter).
    func head(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try streamBytes { chunk in
                bytes.append(contentsOf: chunk.prefix(count - bytes.count))
                if bytes.count >= count { throw StopStreaming() }
            }
        } catch is StopStreaming {}
        return bytes
    }

    func sniffRoot() throws(AppleExportError) -> String? {
        var prolog: [UInt8] = []
        var root: String?
        var failure: AppleExportError?
        do {
            try streamBytes { chunk in
                prolog.append(contentsOf: chunk)
                do {
                    if case .done(_, let rootName, _, _) = try PrologFilter.scan(prolog, isComplete: false) {
                        root = rootName
                        throw StopStreaming()
                    }
                } catch let error as PrologFilter.Failure {
                    failure = PrologFilter.exportError(error, file: displayName)
                    throw StopStreaming()
                }
            }
        } catch is StopStreaming {
        } catch let error as AppleExportError {
            throw error
        } catch {
            throw .unreadable(file: displayName, problem: "\(error)")
        }
        if let failure { throw failure }
        return root
    }
}

extension PrologFilter {
    static func exportError(_ failure: Failure, file: String) -> AppleExportError {
        switch failure {
        case .entityDeclaration:
            .refused(file: file, problem: "it declares XML entities, which Apple Health exports never do")
        case .noRootElement:
            .malformed(file: file, line: 1, problem: "no root element")
        case .malformedProlog(let problem):
            .malformed(file: file, line: 1, problem: problem)
        }
    }
}

import AppleHealthExport
import Crypto

/// A route file's bytes as a digest, less the export's own time (``GPXExportTime``): the same for
/// an unchanged route in every export, so that the archive can say which content it read from
/// those bytes before (`fileSource`) and a re-check need not read the track again. The digest
/// names the reader too (the track coding's version): a reader that reads tracks differently
/// names the same bytes differently, and reads them again.
package struct RouteSourceDigest {
    private var hasher = SHA256()
    /// The file's first bytes, held until the export's time can be looked for in them.
    private var head: [UInt8] = []
    private var headHashed = false

    package init() {
        hasher.update(data: Array("healthprobe route bytes, track coding \(TrackCoding.version)\n".utf8))
    }

    package mutating func update(_ chunk: UnsafeRawBufferPointer) {
        var rest = chunk
        if !headHashed {
            let taken = min(GPXExportTime.searchedBytes - head.count, chunk.count)
            head.append(contentsOf: chunk.prefix(taken))
            guard head.count == GPXExportTime.searchedBytes else { return }
            hashHead()
            rest = UnsafeRawBufferPointer(rebasing: chunk[taken...])
        }
        hasher.update(bufferPointer: rest)
    }

    /// The first 16 bytes of the SHA-256, as hex (as a content's digest is written).
    package mutating func finalize() -> String {
        if !headHashed { hashHead() }
        return HexText.encode(hasher.finalize().prefix(16))
    }

    private mutating func hashHead() {
        headHashed = true
        head.withUnsafeBytes { bytes in
            guard let span = GPXExportTime.span(in: bytes) else {
                hasher.update(bufferPointer: bytes)
                return
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[..<span.lowerBound]))
            // Where the time was, so that a file without the element is not named as one with it.
            hasher.update(data: [0])
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[span.upperBound...]))
        }
        head = []
    }
}

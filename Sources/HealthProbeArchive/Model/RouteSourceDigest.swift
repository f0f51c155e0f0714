import AppleHealthExport
import Crypto

/// A route file's bytes as a digest, less what every export writes anew (``GPXRewrittenParts``:
/// the export's time, the track's name): the same for an unchanged route in every export, so that
/// the archive can say which content it read from those bytes before (`fileSource`) and a
/// re-check need not read the track again. The digest names the reader too (the track coding's
/// version): a reader that reads tracks differently names the same bytes differently, and reads
/// them again.
package struct RouteSourceDigest {
    private var hasher = SHA256()
    /// The file's first bytes, held until the rewritten parts can be looked for in them.
    private var head: [UInt8] = []
    private var headHashed = false

    package init() {
        hasher.update(data: Array("healthprobe route bytes, track coding \(TrackCoding.version)\n".utf8))
    }

    package mutating func update(_ chunk: UnsafeRawBufferPointer) {
        var rest = chunk
        if !headHashed {
            let taken = min(GPXRewrittenParts.searchedBytes - head.count, chunk.count)
            head.append(contentsOf: chunk.prefix(taken))
            guard head.count == GPXRewrittenParts.searchedBytes else { return }
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
            var kept = 0
            for span in GPXRewrittenParts.spans(in: bytes) {
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[kept..<span.lowerBound]))
                // Where a part was, so that a file without it is not named as one with it.
                hasher.update(data: [0])
                kept = span.upperBound
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[kept...]))
        }
        head = []
    }
}

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
        hasher.update(data: Array("healthprobe route bytes v2, track coding \(TrackCoding.version)\n".utf8))
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

    /// The head as parts that cannot be taken for content: how many parts were set aside, then
    /// each run of bytes before one with its length in front, then the bytes after the last part,
    /// which go on into the rest of the file. Two files name the same bytes only when they differ
    /// in the set-aside parts alone (whatever those parts' lengths); a file holding any byte where
    /// a part was is another file.
    private mutating func hashHead() {
        headHashed = true
        head.withUnsafeBytes { bytes in
            let spans = GPXRewrittenParts.spans(in: bytes)
            hasher.update(data: [UInt8(spans.count)])
            var kept = 0
            for span in spans {
                withUnsafeBytes(of: UInt64(span.lowerBound - kept).littleEndian) { hasher.update(bufferPointer: $0) }
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[kept..<span.lowerBound]))
                kept = span.upperBound
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[kept...]))
        }
        head = []
    }
}

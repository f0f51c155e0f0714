/// What the archive holds of an export's files as a capture starts, for the reader of a
/// re-check: which contents, not to compress them again (``HeldDigests``), and which content it
/// read from a route's bytes before (``RouteSourceDigest``), not to read the track again.
/// Read in the capture's own transaction, so nothing it names can go before the capture is
/// written. Kept as compact as the digests: 40 bytes a route in one sorted array.
package struct HeldFiles: Sendable {
    package var contents = HeldDigests()
    private var sources: [Source] = []
    private var sealed = true

    /// The bytes' digest, the content it gave, and the items it holds.
    private struct Source: Sendable, Comparable {
        var source: Digest128
        var digest: Digest128
        var items: Int

        static func < (left: Source, right: Source) -> Bool {
            (left.source.high, left.source.low) < (right.source.high, right.source.low)
        }

        static func == (left: Source, right: Source) -> Bool { left.source == right.source }
    }

    package init() {}

    /// Whether any route's bytes are known: when none are, a route is read without looking first.
    package var knowsSources: Bool { !sources.isEmpty }

    /// Adds what bytes of digest `source` gave; ``seal()`` before asking.
    package mutating func insert(source: String, digest: String, items: Int) {
        guard let source = Digest128(hex: source), let digest = Digest128(hex: digest) else { return }
        sources.append(Source(source: source, digest: digest, items: items))
        sealed = false
    }

    /// Makes what was inserted ready to be asked about.
    package mutating func seal() {
        contents.seal()
        sources.sort()
        sealed = true
    }

    /// The content the archive read from bytes of this digest, without its bytes: the archive
    /// holds them.
    package func content(source: String) -> FileContent? {
        precondition(sealed, "HeldFiles asked before it was sealed")
        guard let key = Digest128(hex: source),
            let index = sources.sortedIndex(of: Source(source: key, digest: key, items: 0))
        else { return nil }
        let held = sources[index]
        return FileContent(held: held.digest.hex, items: held.items, source: source)
    }
}

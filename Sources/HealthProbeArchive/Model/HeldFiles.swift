/// What the archive holds of an export's files as a capture starts, for the reader of a
/// re-check: which contents, not to compress them again (``HeldDigests``), and which content it
/// read from a route's bytes before (``RouteSourceDigest``), not to read the track again.
/// Read in the capture's own transaction, so nothing it names can go before the capture is
/// written.
package struct HeldFiles: Sendable {
    package var contents = HeldDigests()
    private var sources: [Digest128: Source] = [:]

    /// A content, and the items it holds, as compact as the digests.
    private struct Source: Sendable {
        var digest: Digest128
        var items: Int
    }

    package init() {}

    /// Whether any route's bytes are known: when none are, a route is read without looking first.
    package var knowsSources: Bool { !sources.isEmpty }

    package mutating func insert(source: String, digest: String, items: Int) {
        guard let source = Digest128(hex: source), let digest = Digest128(hex: digest) else { return }
        sources[source] = Source(digest: digest, items: items)
    }

    /// The content the archive read from bytes of this digest, without its bytes: the archive
    /// holds them.
    package func content(source: String) -> FileContent? {
        guard let key = Digest128(hex: source), let held = sources[key] else { return nil }
        return FileContent(held: held.digest.hex, items: held.items, source: source)
    }
}

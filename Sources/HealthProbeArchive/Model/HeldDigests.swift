/// The file contents an archive holds, as the first 64 bits of each digest: a re-check's reader
/// asks it which content not to compress (`FileContent`'s `unlessHeld`).
/// Eight bytes a content, in one sorted array (a set would take twice that, and its growth as much
/// again for a moment: ten years of routes are seventy thousand); two digests sharing their first
/// 64 bits only leave one content uncompressed, which the archive compresses when it finds it
/// does not hold it.
package struct HeldDigests: Sendable {
    private var prefixes: [UInt64] = []
    private var sealed = true

    package init() {}

    package init(_ digests: some Sequence<String>) {
        for digest in digests { insert(digest) }
        seal()
    }

    /// How many distinct prefixes are held (once sealed).
    package var count: Int { prefixes.count }

    /// Adds a digest; ``seal()`` before asking.
    package mutating func insert(_ digest: String) {
        guard let prefix = Self.prefix(digest) else { return }
        prefixes.append(prefix)
        sealed = false
    }

    /// Makes the digests inserted ready to be asked about.
    package mutating func seal() {
        prefixes.sort()
        // Each prefix once, as a set holds them: the sorted copies side by side.
        var kept = 0
        for prefix in prefixes where kept == 0 || prefixes[kept - 1] != prefix {
            prefixes[kept] = prefix
            kept += 1
        }
        prefixes.removeLast(prefixes.count - kept)
        sealed = true
    }

    /// Whether the archive may hold the content of `digest` (it holds it, or another of its first
    /// 64 bits).
    package func mayHold(_ digest: String) -> Bool {
        precondition(sealed, "HeldDigests asked before it was sealed")
        guard let prefix = Self.prefix(digest) else { return false }
        return prefixes.sortedIndex(of: prefix) != nil
    }

    /// The digest's first 64 bits; nil when it is not a digest.
    private static func prefix(_ digest: String) -> UInt64? {
        Digest128(hex: digest)?.high
    }
}

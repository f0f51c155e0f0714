/// The file contents an archive holds, as the first 64 bits of each digest: a re-check's reader
/// asks it which content not to compress (`FileContent`'s `unlessHeld`).
/// Eight bytes a content, not a 32-character string; two digests sharing their first 64 bits only
/// leave one content uncompressed, which the archive compresses when it finds it does not hold it.
package struct HeldDigests: Sendable {
    private var prefixes: Set<UInt64> = []

    package init() {}

    package init(_ digests: some Sequence<String>) {
        for digest in digests { insert(digest) }
    }

    package var count: Int { prefixes.count }

    package mutating func insert(_ digest: String) {
        if let prefix = Self.prefix(digest) { prefixes.insert(prefix) }
    }

    /// Whether the archive may hold the content of `digest` (it holds it, or another of its first
    /// 64 bits).
    package func mayHold(_ digest: String) -> Bool {
        guard let prefix = Self.prefix(digest) else { return false }
        return prefixes.contains(prefix)
    }

    /// The digest's first 64 bits; nil when it is not a digest.
    private static func prefix(_ digest: String) -> UInt64? {
        Digest128(hex: digest)?.high
    }
}

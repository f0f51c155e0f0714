/// MurmurHash3, x64 128-bit variant (Austin Appleby's public-domain reference, seed 0, bytes read
/// little-endian on every platform). Not cryptographic: it makes the semantic and fuzzy
/// fingerprints, which identify content nobody forges against itself, at a tenth of SHA-256's
/// cost per record; the strict fingerprint stays SHA-256 (docs/DESIGN.md §6).
enum MurmurHash3 {
    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f

    /// The two 64-bit halves, `h1` then `h2`, as the reference returns them.
    static func hash128(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var h1: UInt64 = 0
        var h2: UInt64 = 0
        let blocks = bytes.count / 16
        for block in 0..<blocks {
            let k1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16, as: UInt64.self))
            let k2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16 + 8, as: UInt64.self))
            h1 ^= mixK1(k1)
            h1 = rotate(h1, 27) &+ h2
            h1 = h1 &* 5 &+ 0x52dc_e729
            h2 ^= mixK2(k2)
            h2 = rotate(h2, 31) &+ h1
            h2 = h2 &* 5 &+ 0x3849_5ab5
        }
        let tail = blocks * 16
        let rest = bytes.count - tail
        if rest > 8 {
            var k2: UInt64 = 0
            for index in 8..<rest { k2 ^= UInt64(bytes[tail + index]) << (8 * UInt64(index - 8)) }
            h2 ^= mixK2(k2)
        }
        if rest > 0 {
            var k1: UInt64 = 0
            for index in 0..<min(rest, 8) { k1 ^= UInt64(bytes[tail + index]) << (8 * UInt64(index)) }
            h1 ^= mixK1(k1)
        }
        h1 ^= UInt64(bytes.count)
        h2 ^= UInt64(bytes.count)
        h1 &+= h2
        h2 &+= h1
        h1 = finalMix(h1)
        h2 = finalMix(h2)
        h1 &+= h2
        h2 &+= h1
        return (h1, h2)
    }

    private static func mixK1(_ k: UInt64) -> UInt64 { rotate(k &* c1, 31) &* c2 }
    private static func mixK2(_ k: UInt64) -> UInt64 { rotate(k &* c2, 33) &* c1 }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        value << count | value >> (64 - count)
    }

    private static func finalMix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}

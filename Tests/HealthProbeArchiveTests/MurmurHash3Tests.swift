import Testing

@testable import HealthProbeArchive

@Suite("MurmurHash3 x64 128 matches the reference")
struct MurmurHash3Tests {
    /// Values from the reference implementation (through Python's `mmh3.hash128(…, 0, True)`),
    /// covering no block, a tail only, blocks with both tail halves, and whole blocks.
    @Test(arguments: [
        ("", UInt64(0), UInt64(0)),
        ("hello", 0xcbd8_a7b3_41bd_9b02, 0x5b1e_906a_48ae_1d19),
        ("The quick brown fox jumps over the lazy dog", 0xe34b_bc7b_bc07_1b6c, 0x7a43_3ca9_c49a_9347),
    ])
    func text(_ text: String, _ h1: UInt64, _ h2: UInt64) {
        let hash = Array(text.utf8).withUnsafeBytes { MurmurHash3.hash128($0) }
        #expect(hash.0 == h1)
        #expect(hash.1 == h2)
    }

    @Test func fortyBytes() {
        let hash = Array(0..<UInt8(40)).withUnsafeBytes { MurmurHash3.hash128($0) }
        #expect(hash.0 == 0xc3a0_54d8_418c_8064)
        #expect(hash.1 == 0xa001_ca30_974c_12ad)
    }
}

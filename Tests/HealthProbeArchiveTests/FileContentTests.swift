import Testing

@testable import HealthProbeArchive

/// A file's content is kept compressed: whatever its size and however
/// little it compresses, it comes back byte for byte.
@Suite("File content compressed and inflated")
struct FileContentTests {
    @Test(arguments: [0, 1, 300, 5_000, 70_000, 1 << 20])
    func randomBytesComeBackAsTheyWere(count: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let content = FileContent(bytes, items: count)
        #expect(content.inflated() == bytes)
    }

    @Test func repetitiveBytesShrink() throws {
        let bytes = [UInt8](repeating: 0x41, count: 200_000)
        let content = FileContent(bytes, items: bytes.count)
        #expect(content.compressed.count < 2_000)
        #expect(content.inflated() == bytes)
    }
}

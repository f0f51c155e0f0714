import Foundation
import GRDB
import Testing

@testable import HealthProbeArchive

/// A file's content is kept compressed: whatever its size and however little it compresses, it
/// comes back byte for byte. Content whose digest the archive held when it was read is left
/// uncompressed, and compressed after all if the archive no longer holds it when it is stored.
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

    @Test func contentTheArchiveHeldIsLeftUncompressedAndStoredIfItIsGone() throws {
        let bytes = Array("2000-01-01 a track of Test User's points".utf8)
        let compressed = FileContent(bytes, items: 3)
        let left = FileContent(bytes, items: 3, unlessHeld: HeldDigests([compressed.digest]))
        #expect(left.isLeftUncompressed && !compressed.isLeftUncompressed)
        #expect(left == compressed)
        #expect(left.inflated() == bytes)
        #expect(left.compressed == compressed.compressed)
        let other = HeldDigests(["00000000000000000000000000000000", "not a digest"])
        #expect(other.count == 1)
        // Digests are told apart by their first 64 bits: one sharing them may be held.
        #expect(HeldDigests([compressed.digest]).mayHold(String(compressed.digest.prefix(16)) + "0123456789abcdef"))
        #expect(FileContent(bytes, items: 3, unlessHeld: other).isLeftUncompressed == false)

        let store = try ArchiveStore.inMemory()
        func stored() throws -> [String: Data] {
            try store.writer.read { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT digest, content FROM fileContent").map {
                        ($0["digest"] as String, $0["content"] as Data)
                    })
            }
        }
        // Held when read, gone when stored (another process removed its last capture): stored.
        try store.writer.write { db in try ReferencedFiles.store(left, kind: .route, db) }
        #expect(try stored() == [compressed.digest: Data(compressed.compressed)])
        let held = try store.writer.read(ReferencedFiles.held).contents
        #expect(held.mayHold(compressed.digest) && held.count == 1)
        // Held and still there: nothing written again.
        try store.writer.write { db in
            try db.execute(sql: "UPDATE fileContent SET content = x'00'")
            try ReferencedFiles.store(left, kind: .route, db)
        }
        #expect(try stored() == [compressed.digest: Data([0])])
    }

    /// A route known by its bytes comes without them: it is only ever told held when the archive
    /// holds it, and were it gone all the same, the capture fails rather than keep a digest with
    /// no content.
    @Test func contentKnownByItsBytesIsNeverStoredEmpty() throws {
        let store = try ArchiveStore.inMemory()
        var read = FileContent(Array("2000-01-01 Test User's points".utf8), items: 2)
        read.source = "00112233445566778899aabbccddeeff"
        try store.writer.write { db in try ReferencedFiles.store(read, kind: .route, db) }
        var held = try store.writer.read(ReferencedFiles.held)
        let known = try #require(held.content(source: "00112233445566778899aabbccddeeff"))
        #expect(known == read && !known.hasBytes && known.compressed.isEmpty)
        #expect(held.content(source: "ffffffffffffffffffffffffffffffff") == nil)

        try store.writer.write { db in try ReferencedFiles.store(known, kind: .route, db) }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fileSource") } == 1)

        held.insert(source: "ffffffffffffffffffffffffffffffff", digest: "ffffffffffffffffffffffffffffffff", items: 1)
        held.seal()
        let gone = try #require(held.content(source: "ffffffffffffffffffffffffffffffff"))
        #expect(throws: ArchiveError.self) {
            try store.writer.write { db in try ReferencedFiles.store(gone, kind: .route, db) }
        }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fileContent") } == 1)
    }

    /// Held routes in one sorted array: every one inserted, in any order, is found, and no other.
    @Test func everyHeldRouteIsFoundAmongThousandsAndNoOther() {
        var generator = SystemRandomNumberGenerator()
        func digest() -> String {
            (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        }
        let sources = (0..<3_000).map { _ in digest() }
        var held = HeldFiles()
        for (index, source) in sources.enumerated() {
            held.insert(source: source, digest: source, items: index)
            held.contents.insert(source)
        }
        held.seal()
        for (index, source) in sources.enumerated() {
            #expect(held.content(source: source)?.items == index)
            #expect(held.contents.mayHold(source))
        }
        let inserted = Set(sources)
        let others = (0..<3_000).map { _ in digest() }.filter { !inserted.contains($0) }
        #expect(others.allSatisfy { held.content(source: $0) == nil })
        #expect(others.filter { held.contents.mayHold($0) }.isEmpty)
    }
}

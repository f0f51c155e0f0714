import Foundation
import GRDB
import Synchronization
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

    /// What the archive holds, asked as a capture's reader asks it, from a thread of its own while
    /// `writing` runs in the capture's transaction.
    static func asked<T: Sendable>(
        _ store: ArchiveStore, writing: (Database) throws -> Void = { _ in },
        question: @escaping @Sendable (HeldFileAnswers) -> T
    ) throws -> T {
        try store.writer.write { db in
            let held = try HeldFiles.asked(of: store, writing: db)
            try writing(db)
            let answer = Mutex<T?>(nil)
            let answered = DispatchSemaphore(value: 0)
            Thread {
                answer.withLock { $0 = try? held.asking(question) }
                answered.signal()
            }.start()
            answered.wait()
            return try #require(answer.withLock { $0 })
        }
    }

    @Test func contentTheArchiveHeldIsLeftUncompressedAndStoredIfItIsGone() throws {
        let bytes = Array("2000-01-01 a track of Test User's points".utf8)
        let compressed = FileContent(bytes, items: 3)
        let left = FileContent(bytes, items: 3) { $0 == compressed.digest }
        #expect(left.isLeftUncompressed && !compressed.isLeftUncompressed)
        #expect(left == compressed)
        #expect(left.inflated() == bytes)
        #expect(left.compressed == compressed.compressed)

        let store = try ArchiveTestSupport().openArchive()
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
        let digest = compressed.digest
        #expect(try Self.asked(store) { [$0.holds(digest), $0.holds(String(digest.reversed()))] } == [true, false])
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
        let store = try ArchiveTestSupport().openArchive()
        var read = FileContent(Array("2000-01-01 Test User's points".utf8), items: 2)
        read.source = "00112233445566778899aabbccddeeff"
        try store.writer.write { db in try ReferencedFiles.store(read, kind: .route, db) }
        let answers = try Self.asked(store) {
            [
                $0.content(source: "00112233445566778899aabbccddeeff"),
                $0.content(source: "ffffffffffffffffffffffffffffffff"),
            ]
        }
        let known = try #require(answers[0])
        #expect(known == read && !known.hasBytes && known.compressed.isEmpty)
        #expect(answers[1] == nil)

        try store.writer.write { db in try ReferencedFiles.store(known, kind: .route, db) }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fileSource") } == 1)

        let gone = FileContent(
            held: "ffffffffffffffffffffffffffffffff", items: 1, source: "ffffffffffffffffffffffffffffffff")
        #expect(throws: ArchiveError.self) {
            try store.writer.write { db in try ReferencedFiles.store(gone, kind: .route, db) }
        }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fileContent") } == 1)
    }

    /// The reader sees what the archive held as the capture started: nothing the capture's own
    /// transaction writes, every route however many. An archive in memory answers nothing held.
    @Test func theReaderIsAnsweredWhatTheArchiveHeldAsTheCaptureStarted() throws {
        var generator = SystemRandomNumberGenerator()
        func content(_ index: Int) -> FileContent {
            var content = FileContent(Array("2000-01-01 route \(index) of Test User".utf8), items: index)
            content.source = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
                .joined()
            return content
        }
        let held = (0..<3_000).map(content)
        let store = try ArchiveTestSupport().openArchive()
        try store.writer.write { db in
            for file in held { try ReferencedFiles.store(file, kind: .route, db) }
        }
        let written = (3_000..<3_010).map(content)
        let sources = (held + written).map { $0.source! }
        let answers = try Self.asked(store) { db in
            for file in written { try ReferencedFiles.store(file, kind: .route, db) }
        } question: { answers in
            sources.map { answers.content(source: $0)?.items }
        }
        #expect(answers == held.map(\.items) + written.map { _ in nil })
        #expect(
            try Self.asked(store) { answers in sources.filter { answers.content(source: $0) != nil }.count } == 3_010)

        let memory = try ArchiveStore.inMemory()
        try memory.writer.write { db in try ReferencedFiles.store(held[0], kind: .route, db) }
        let inMemory = try memory.writer.write { db in try HeldFiles.asked(of: memory, writing: db) }
        #expect(try inMemory.asking { [$0.knowsSources, $0.holds(held[0].digest)] } == [false, false])
    }
}

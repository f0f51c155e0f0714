import Foundation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The encrypted format of docs/ENCRYPTED-EXPORTS.md: its known-answer vector, round trips
/// around segment boundaries, and every kind of tampering refused.
@Suite("Encrypted exports")
struct EncryptedExportTests {
    /// The vector the documentation gives, byte for byte.
    enum Vector {
        static let password = Array("HealthProbe test vector".utf8)
        static let salt = Array(UInt8(0x00)...UInt8(0x0F))
        static let hkdfSalt = Array(UInt8(0x20)...UInt8(0x3F))
        static let noncePrefix = Array(UInt8(0xA0)...UInt8(0xA6))
        static let segmentSize: UInt32 = 64
        static let plaintext = Array(
            "2000-01-01 Test User: a known-answer vector for HealthProbe encrypted exports.".utf8)
        /// Computed from docs/ENCRYPTED-EXPORTS.md with Python's `cryptography`, apart from this code.
        static let ciphertextHex = """
            4850455850454e430201000927c010000102030405060708090a0b0c0d0e0f00000040a596ac81b71fc2e677c9b80bd7
            34301d88dc555b5eaa98f4ae90614945528b4128202122232425262728292a2b2c2d2e2f303132333435363738393a3b
            3c3d3e3fa0a1a2a3a4a5a6a9bce5721288691203e848ecc0d2eba1fd2446309b4eec9af59d16b9221b2e29d1b7a00f79
            dbca001aa9f003d3674613d0e87a459c83154c28f228145fd72378bdd54ee4eb99f4245535d24b219431f62404e5afbe
            4fd9c8b23645fd947028f1e4d396612d794938e50cd98f024aaee42673879befacdcbcfe273f9fd087
            """.replacingOccurrences(of: "\n", with: "")
        /// The same input in version 1 of the format (no key check), as HealthProbe wrote it
        /// before: still read.
        static let version1Hex = """
            4850455850454e430101000927c010000102030405060708090a0b0c0d0e0f0000004028202122232425262728292a2b
            2c2d2e2f303132333435363738393a3b3c3d3e3fa0a1a2a3a4a5a6a45bfd776d6531374e009af6cdb0be7e69f94c179e
            34d701b27906299ff9be8e7b19c34acd230b248aeb67f916c6018870fc00009dcd8b7d401a0537f1c12f62b558349b94
            8c127d7d9a3b43cf4fec667eeb1d4df0d86076d657642bd537ec1388c5bb6e75606747ca654bef2ffe91522cf7f1fee4
            1eed1b2a8781d5df32
            """.replacingOccurrences(of: "\n", with: "")
    }

    static func encrypt(
        _ plaintext: [UInt8], password: [UInt8] = Vector.password, segmentSize: UInt32 = Vector.segmentSize,
        salt: [UInt8] = Vector.salt, hkdfSalt: [UInt8] = Vector.hkdfSalt, noncePrefix: [UInt8] = Vector.noncePrefix,
        chunk: Int = 7
    ) throws -> [UInt8] {
        var output: [UInt8] = []
        let encryptor = try StreamingEncryptor(
            password: password, header: EncryptedExportHeader(salt: salt, segmentSize: segmentSize),
            hkdfSalt: hkdfSalt, noncePrefix: noncePrefix
        ) { output.append(contentsOf: $0) }
        var offset = 0
        while offset < plaintext.count {
            let end = min(plaintext.count, offset + chunk)
            try plaintext[offset..<end].withUnsafeBytes { try encryptor.write($0) }
            offset = end
        }
        try encryptor.finish()
        return output
    }

    static func decrypt(_ ciphertext: [UInt8], password: [UInt8] = Vector.password) throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hp-\(UUID().uuidString).enc")
        try Data(ciphertext).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var plaintext: [UInt8] = []
        try StreamingDecryptor.decrypt(password: password, input: handle) { plaintext.append(contentsOf: $0) }
        return plaintext
    }

    @Test func knownAnswerVector() throws {
        let output = try Self.encrypt(Vector.plaintext)
        #expect(HexText.encode(output) == Vector.ciphertextHex)
        // Written by any chunking, the bytes are the same.
        #expect(try Self.encrypt(Vector.plaintext, chunk: 1) == output)
        #expect(try Self.encrypt(Vector.plaintext, chunk: 1000) == output)
        #expect(try Self.decrypt(output) == Vector.plaintext)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 55, 56, 57, 103, 104, 105, 200])
    func roundTripsAroundSegmentBoundaries(size: Int) throws {
        // With 64-byte segments the first holds 8 plaintext bytes and each later one 48.
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let ciphertext = try Self.encrypt(plaintext)
        let segments = size <= 8 ? 1 : 1 + (size - 8 + 47) / 48
        #expect(ciphertext.count == EncryptedExportHeader.length + 40 + size + 16 * segments)
        #expect(try Self.decrypt(ciphertext) == plaintext)
    }

    @Test func aMegabyteSegmentStreamRoundTrips() throws {
        let segment = Int(EncryptedExportHeader.defaultSegmentSize)
        for size in [0, segment - 56, segment - 55, 3 * segment] {
            let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 >> 3) }
            let ciphertext = try Self.encrypt(
                plaintext, segmentSize: EncryptedExportHeader.defaultSegmentSize, chunk: 70_000)
            #expect(try Self.decrypt(ciphertext) == plaintext)
        }
    }

    @Test func aVersion1FileIsStillRead() throws {
        let hex = Array(Vector.version1Hex.utf8)
        let version1 = stride(from: 0, to: hex.count, by: 2).map {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
        #expect(try Self.decrypt(version1) == Vector.plaintext)
        // Without a key check, a wrong password and a damaged first segment look alike: said so.
        #expect(throws: EncryptedExportError.wrongPasswordOrDamaged) {
            try Self.decrypt(version1, password: Array("wrong".utf8))
        }
    }

    /// The key check tells a wrong password from damage: with the right one, a damaged first
    /// segment is damage, never blamed on the password.
    @Test func damageIsNotBlamedOnTheRightPassword() throws {
        var ciphertext = try Self.encrypt(Vector.plaintext)
        let firstSegment = EncryptedExportHeader.length + 40
        ciphertext[firstSegment + 3] ^= 0x01
        #expect(throws: EncryptedExportError.alteredOrIncomplete) { try Self.decrypt(ciphertext) }
        #expect(throws: EncryptedExportError.wrongPassword) {
            try Self.decrypt(ciphertext, password: Array("wrong".utf8))
        }
    }

    @Test func aWrongPasswordOrAnotherFileIsRefusedAsSuch() throws {
        let ciphertext = try Self.encrypt(Vector.plaintext)
        #expect(throws: EncryptedExportError.wrongPassword) {
            try Self.decrypt(ciphertext, password: Array("wrong".utf8))
        }
        #expect(throws: EncryptedExportError.notEncryptedExport) {
            try Self.decrypt(Array("PK\u{3}\u{4} a zip file".utf8))
        }
        #expect(throws: EncryptedExportError.notEncryptedExport) { try Self.decrypt([]) }
    }

    @Test func everyKindOfTamperingIsDetected() throws {
        // Five segments: 24 ciphertext bytes after the headers, then 64, 64, 64 and 64.
        let ciphertext = try Self.encrypt((0..<200).map { UInt8($0) })
        let altered = EncryptedExportError.alteredOrIncomplete
        let body = EncryptedExportHeader.length + 40
        // Truncated at a segment boundary, inside a segment, and to the first segment only.
        for length in [ciphertext.count - 1, ciphertext.count - 40, body + 64 - 40, body + 64 - 40 + 64] {
            #expect(throws: altered) { try Self.decrypt(Array(ciphertext.prefix(length))) }
        }
        // Appended bytes, and a whole segment appended.
        #expect(throws: altered) { try Self.decrypt(ciphertext + [0]) }
        // Two later segments swapped.
        var swapped = Array(ciphertext[..<(body + 24)])
        swapped += ciphertext[(body + 24 + 64)..<(body + 24 + 128)]
        swapped += ciphertext[(body + 24)..<(body + 24 + 64)]
        swapped += ciphertext[(body + 24 + 128)...]
        #expect(throws: altered) { try Self.decrypt(swapped) }
        // Any flipped bit: in the outer header's parameters it is another file or key; in the
        // stream it is refused.
        // Each costs a key derivation, so a bit in each field and at each segment's edges.
        let segmentEdges = stride(from: body, to: ciphertext.count, by: 64).flatMap { [$0, $0 + 23, $0 + 24, $0 + 63] }
        for index in [0, 9, 12, 14, 20, 33, 35, 40, 70] + segmentEdges.filter({ $0 < ciphertext.count }) {
            var flipped = ciphertext
            flipped[index] ^= 0x10
            #expect(throws: EncryptedExportError.self) { try Self.decrypt(flipped) }
        }
    }

    @Test func aHostileIterationCountIsRefusedBeforeAnyKeyIsDerived() throws {
        var ciphertext = try Self.encrypt(Vector.plaintext)
        // 0xFFFFFFFF iterations would take hours.
        ciphertext.replaceSubrange(10..<14, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let started = Date()
        #expect(throws: EncryptedExportError.notEncryptedExport) { try Self.decrypt(ciphertext) }
        #expect(Date().timeIntervalSince(started) < 1)
    }
}

import Crypto
import Foundation
import HealthProbeArchive
import _CryptoExtras

/// The key schedule and segment nonces of HealthProbe's encrypted exports: Tink's
/// AES-GCM-HKDF streaming AEAD (AES-256, HKDF-SHA256), keyed by PBKDF2-HMAC-SHA256 of the
/// password, with ``EncryptedExportHeader`` as its associated data. Everything cryptographic is
/// swift-crypto's; this file only lays the bytes out.
enum StreamingAEAD {
    static let streamHeaderLength = 40
    static let hkdfSaltLength = 32
    static let noncePrefixLength = 7
    static let tagLength = 16

    /// What the key check authenticates (version 2 headers).
    static let keyCheckMessage = Array("HealthProbe encrypted export key check".utf8)

    /// PBKDF2 of the password: the input key material.
    static func keyMaterial(password: [UInt8], header: EncryptedExportHeader) throws -> SymmetricKey {
        try KDF.Insecure.PBKDF2.deriveKey(
            from: password, salt: header.salt, using: .sha256, outputByteCount: 32, rounds: Int(header.iterations))
    }

    /// HMAC-SHA256 of ``keyCheckMessage`` with the key material: a decrypter compares it before
    /// any segment, so a wrong password is told from damage. It tells a guesser nothing the first
    /// segment's tag would not (each guess still costs the whole PBKDF2).
    static func keyCheck(_ material: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: keyCheckMessage, using: material))
    }

    static func keyCheckMatches(_ check: [UInt8], _ material: SymmetricKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(check, authenticating: keyCheckMessage, using: material)
    }

    /// HKDF of the key material with the stream's salt and the whole outer header as `info`.
    static func segmentKey(material: SymmetricKey, headerBytes: [UInt8], hkdfSalt: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: material, salt: hkdfSalt, info: headerBytes, outputByteCount: 32)
    }

    /// `prefix ‖ uint32_be(index) ‖ last`.
    static func nonce(prefix: [UInt8], index: UInt32, last: Bool) throws -> AES.GCM.Nonce {
        var bytes = prefix
        bytes.appendBigEndian(index)
        bytes.append(last ? 1 : 0)
        return try AES.GCM.Nonce(data: bytes)
    }

    /// Plaintext bytes a segment holds: the first shares its ciphertext size with the stream
    /// header.
    static func plaintextCapacity(segment index: UInt32, segmentSize: UInt32) -> Int {
        Int(segmentSize) - tagLength - (index == 0 ? streamHeaderLength : 0)
    }
}

/// Encrypts a stream of any length with memory bounded by one segment. Bytes go to `output` as
/// each segment is sealed; a segment is sealed only when the next byte arrives or the stream is
/// finished, so that the last one carries the last-segment flag.
public final class StreamingEncryptor {
    private let key: SymmetricKey
    private let noncePrefix: [UInt8]
    private let segmentSize: UInt32
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private var pending: [UInt8] = []
    private var index: UInt32 = 0

    /// A new stream with fresh random salts and nonce prefix.
    public convenience init(
        password: [UInt8], iterations: UInt32 = EncryptedExportHeader.defaultIterations,
        segmentSize: UInt32 = EncryptedExportHeader.defaultSegmentSize,
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try self.init(
            password: password,
            header: EncryptedExportHeader(
                iterations: iterations, salt: Self.random(EncryptedExportHeader.saltLength), segmentSize: segmentSize),
            hkdfSalt: Self.random(StreamingAEAD.hkdfSaltLength),
            noncePrefix: Self.random(StreamingAEAD.noncePrefixLength),
            output: output)
    }

    /// A stream with chosen salts and nonce prefix: for the known-answer vector only. Writes
    /// both headers at once.
    init(
        password: [UInt8], header: EncryptedExportHeader, hkdfSalt: [UInt8], noncePrefix: [UInt8],
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var header = header
        let material = try StreamingAEAD.keyMaterial(password: password, header: header)
        header.keyCheck = StreamingAEAD.keyCheck(material)
        let headerBytes = header.bytes
        key = StreamingAEAD.segmentKey(material: material, headerBytes: headerBytes, hkdfSalt: hkdfSalt)
        self.noncePrefix = noncePrefix
        segmentSize = header.segmentSize
        self.output = output
        pending.reserveCapacity(Int(segmentSize))
        let streamHeader = [UInt8(StreamingAEAD.streamHeaderLength)] + hkdfSalt + noncePrefix
        try (headerBytes + streamHeader).withUnsafeBytes(output)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let capacity = StreamingAEAD.plaintextCapacity(segment: index, segmentSize: segmentSize)
            if pending.count == capacity { try seal(last: false) }
            let take = min(capacity - pending.count, bytes.count - offset)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            offset += take
        }
    }

    /// Seals what is left as the last segment (an empty one when nothing was written).
    public func finish() throws {
        try seal(last: true)
    }

    private func seal(last: Bool) throws {
        let box = try AES.GCM.seal(
            pending, using: key, nonce: StreamingAEAD.nonce(prefix: noncePrefix, index: index, last: last))
        try box.ciphertext.withUnsafeBytes(output)
        try box.tag.withUnsafeBytes(output)
        pending.removeAll(keepingCapacity: true)
        index += 1
    }

    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// Decrypts an encrypted export from `input`, a segment at a time, handing each verified
/// segment's plaintext to `output`. Only when it returns normally has the last segment verified:
/// a caller writes to a temporary file and keeps it only then.
public enum StreamingDecryptor {
    public static func decrypt(
        password: [UInt8], input: FileHandle, output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var headerBytes = try read(input, EncryptedExportHeader.fixedLength)
        guard headerBytes.count == EncryptedExportHeader.fixedLength else {
            throw headerBytes.starts(with: EncryptedExportHeader.magic.prefix(headerBytes.count))
                && !headerBytes.isEmpty
                ? EncryptedExportError.alteredOrIncomplete : EncryptedExportError.notEncryptedExport
        }
        var header = try EncryptedExportHeader(parsing: headerBytes)
        header.keyCheck = try read(input, header.keyCheckLength)
        guard header.keyCheck.count == header.keyCheckLength else { throw EncryptedExportError.alteredOrIncomplete }
        headerBytes += header.keyCheck
        let streamHeader = try read(input, StreamingAEAD.streamHeaderLength)
        guard streamHeader.count == StreamingAEAD.streamHeaderLength else {
            throw EncryptedExportError.alteredOrIncomplete
        }
        guard streamHeader[0] == UInt8(StreamingAEAD.streamHeaderLength) else {
            // The outer header was HealthProbe's: what follows it was damaged.
            throw EncryptedExportError.alteredOrIncomplete
        }
        let hkdfSalt = Array(streamHeader[1...StreamingAEAD.hkdfSaltLength])
        let noncePrefix = Array(streamHeader[(1 + StreamingAEAD.hkdfSaltLength)...])
        let material = try StreamingAEAD.keyMaterial(password: password, header: header)
        let checked = header.version >= 2
        if checked, !StreamingAEAD.keyCheckMatches(header.keyCheck, material) {
            throw EncryptedExportError.wrongPassword
        }
        let key = StreamingAEAD.segmentKey(material: material, headerBytes: headerBytes, hkdfSalt: hkdfSalt)
        var index: UInt32 = 0
        var segment = try read(input, ciphertextSize(index, header))
        while true {
            let next = try read(input, ciphertextSize(index + 1, header))
            let last = next.isEmpty
            let plaintext = try open(
                segment, index: index, last: last, key: key, noncePrefix: noncePrefix, keyChecked: checked)
            try plaintext.withUnsafeBytes(output)
            if last { return }
            guard index < UInt32.max - 1 else { throw EncryptedExportError.alteredOrIncomplete }
            index += 1
            segment = next
        }
    }

    private static func ciphertextSize(_ index: UInt32, _ header: EncryptedExportHeader) -> Int {
        StreamingAEAD.plaintextCapacity(segment: index, segmentSize: header.segmentSize) + StreamingAEAD.tagLength
    }

    /// Opens one segment. With the key checked, any failure is damage. Without (version 1), a
    /// first segment that fails may be a wrong password, or a right one on a file cut or
    /// extended after it: trying the other last-segment flag tells those apart.
    private static func open(
        _ segment: [UInt8], index: UInt32, last: Bool, key: SymmetricKey, noncePrefix: [UInt8], keyChecked: Bool
    ) throws -> Data {
        guard segment.count >= StreamingAEAD.tagLength else { throw EncryptedExportError.alteredOrIncomplete }
        func attempt(last: Bool) throws -> Data {
            let split = segment.count - StreamingAEAD.tagLength
            let box = try AES.GCM.SealedBox(
                nonce: StreamingAEAD.nonce(prefix: noncePrefix, index: index, last: last),
                ciphertext: segment[..<split], tag: segment[split...])
            return try AES.GCM.open(box, using: key)
        }
        do {
            return try attempt(last: last)
        } catch {
            guard index == 0, !keyChecked else { throw EncryptedExportError.alteredOrIncomplete }
            if (try? attempt(last: !last)) != nil { throw EncryptedExportError.alteredOrIncomplete }
            throw EncryptedExportError.wrongPasswordOrDamaged
        }
    }

    /// Up to `count` bytes; fewer only at the end of the file.
    private static func read(_ input: FileHandle, _ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            guard let chunk = try input.read(upToCount: count - bytes.count), !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}

import Foundation
import HealthProbeArchive

/// The header HealthProbe writes in front of an encrypted export (docs/ENCRYPTED-EXPORTS.md):
/// what a decrypter needs to derive the key, and nothing secret. The whole header is the
/// associated data of the stream after it, so changing any of its bytes fails decryption.
/// Version 2 adds a key check, so that a wrong password is told from a damaged file.
public struct EncryptedExportHeader: Sendable, Equatable {
    /// `HPEXPENC`.
    static let magic: [UInt8] = Array("HPEXPENC".utf8)
    /// What HealthProbe writes; version 1 (no key check) is still read.
    public static let currentVersion: UInt8 = 2
    static let kdfPBKDF2SHA256: UInt8 = 1
    static let saltLength = 16
    /// Magic, version, KDF, iterations, salt length, salt, segment size: every version's start.
    static let fixedLength = 8 + 1 + 1 + 4 + 1 + 16 + 4
    static let keyCheckLength = 32
    /// The whole header HealthProbe writes.
    static let length = fixedLength + keyCheckLength

    /// What HealthProbe writes: OWASP's current figure for PBKDF2-HMAC-SHA256.
    public static let defaultIterations: UInt32 = 600_000
    /// A hostile file must not make decryption spin: about a second here.
    static let maximumIterations: UInt32 = 10_000_000
    public static let defaultSegmentSize: UInt32 = 1 << 20
    static let segmentSizes: ClosedRange<UInt32> = 64...(1 << 24)

    public var version: UInt8
    public var iterations: UInt32
    public var salt: [UInt8]
    public var segmentSize: UInt32
    /// HMAC-SHA256 of ``StreamingAEAD/keyCheckMessage`` keyed by the password's key material
    /// (version 2); set by the encryptor once the key is derived.
    public var keyCheck: [UInt8] = []

    public init(
        iterations: UInt32 = defaultIterations, salt: [UInt8], segmentSize: UInt32 = defaultSegmentSize,
        version: UInt8 = currentVersion
    ) {
        self.version = version
        self.iterations = iterations
        self.salt = salt
        self.segmentSize = segmentSize
    }

    var bytes: [UInt8] {
        var bytes = Self.magic
        bytes.append(version)
        bytes.append(Self.kdfPBKDF2SHA256)
        bytes.appendBigEndian(iterations)
        bytes.append(UInt8(salt.count))
        bytes.append(contentsOf: salt)
        bytes.appendBigEndian(segmentSize)
        if version >= 2 { bytes.append(contentsOf: keyCheck) }
        return bytes
    }

    /// Reads a header's fixed start, refusing anything HealthProbe would not have written
    /// before any key is derived: another magic, version or KDF, an iteration count out of
    /// range, a segment size out of range. A version 2 header's key check follows
    /// (``readKeyCheck(_:)``).
    init(parsing bytes: [UInt8]) throws(EncryptedExportError) {
        guard bytes.count == Self.fixedLength, Array(bytes[0..<8]) == Self.magic else { throw .notEncryptedExport }
        guard (1...Self.currentVersion).contains(bytes[8]), bytes[9] == Self.kdfPBKDF2SHA256,
            Int(bytes[14]) == Self.saltLength
        else { throw .notEncryptedExport }
        version = bytes[8]
        iterations = UInt32(bigEndian: bytes, at: 10)
        salt = Array(bytes[15..<31])
        segmentSize = UInt32(bigEndian: bytes, at: 31)
        guard (Self.defaultIterations...Self.maximumIterations).contains(iterations),
            Self.segmentSizes.contains(segmentSize)
        else { throw .notEncryptedExport }
    }

    /// The key check's length in this version's header.
    var keyCheckLength: Int { version >= 2 ? Self.keyCheckLength : 0 }
}

/// Why an encrypted export could not be read. The messages are the command line's.
public enum EncryptedExportError: Error, Equatable, LocalizedError {
    /// The header is not HealthProbe's.
    case notEncryptedExport
    /// The password's key does not match the header's key check (version 2).
    case wrongPassword
    /// A version 1 file whose first segment does not open: without a key check, a wrong
    /// password and damage to that segment look alike.
    case wrongPasswordOrDamaged
    /// The key is right but a segment is missing, reordered, changed or appended.
    case alteredOrIncomplete

    public var errorDescription: String? {
        switch self {
        case .notEncryptedExport: "not a HealthProbe encrypted export"
        case .wrongPassword: "wrong password"
        case .wrongPasswordOrDamaged:
            "wrong password, or the file was damaged (a file HealthProbe encrypted before version 2 of the format "
                + "cannot tell them apart)"
        case .alteredOrIncomplete: "the file was altered or is incomplete"
        }
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }
}

extension UInt32 {
    init(bigEndian bytes: [UInt8], at offset: Int) {
        self = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

import Crypto
import Foundation

/// A 128-bit content fingerprint: SHA-256 of a canonical encoding, truncated.
public struct Fingerprint: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(digest: SHA256.Digest) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        digest.withUnsafeBytes { bytes in
            for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        }
        self.init(high: high, low: low)
    }

    /// Big-endian bytes, as stored in the archive.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.init(
            high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
            low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
    }

    public var hex: String { bytes.map { String(format: "%02x", $0) }.joined() }
    public var description: String { hex }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

/// Feeds typed fields into SHA-256 unambiguously: each field is a tag byte and a length prefix.
struct FingerprintHasher {
    private var hasher = SHA256()

    mutating func add(_ tag: UInt8, _ text: String?) {
        guard var text else { return add(tag, absent: ()) }
        text.withUTF8 { bytes in
            var header = (tag, UInt32(bytes.count).littleEndian)
            withUnsafeBytes(of: &header.0) { hasher.update(bufferPointer: $0) }
            withUnsafeBytes(of: &header.1) { hasher.update(bufferPointer: $0) }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
        }
    }

    mutating func add(_ tag: UInt8, _ number: Int64?) {
        guard let number else { return add(tag, absent: ()) }
        var fields = (tag | 0x80, number.littleEndian)
        withUnsafeBytes(of: &fields.0) { hasher.update(bufferPointer: $0) }
        withUnsafeBytes(of: &fields.1) { hasher.update(bufferPointer: $0) }
    }

    private mutating func add(_ tag: UInt8, absent: Void) {
        var marker = (tag, UInt8(0xFF))
        withUnsafeBytes(of: &marker) { hasher.update(bufferPointer: $0) }
    }

    consuming func finalize() -> Fingerprint {
        Fingerprint(digest: hasher.finalize())
    }
}

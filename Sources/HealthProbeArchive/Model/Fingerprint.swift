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

    /// A stored fingerprint read in place (a column's bytes); nil unless 16 bytes.
    public init?(bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes, bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[index + 8])
        }
        self.init(high: high, low: low)
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.init(
            high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
            low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The compact key the archive indexes: the hour the record starts in (23 bits), then the
    /// fingerprint's first 40 bits. Records close in time are close in the index, so inserting an
    /// export — ordered by type, then time — touches a few index pages at a time instead of
    /// pages all over the index. Lookups by key are always confirmed against the whole fingerprint.
    public func key(startingAt start: Double?) -> Int64 {
        Self.key(startingAt: start, bits: high)
    }

    /// The hour `start` falls in (23 bits), then the first 40 of `bits`.
    static func key(startingAt start: Double?, bits: UInt64) -> Int64 {
        let hour = start.map { max(0, min(Double(1 << 23 - 1), ($0 / 3600).rounded(.down))) } ?? 0
        return Int64(bitPattern: UInt64(hour) << 40 | bits >> 24)
    }

    public var hex: String { HexText.encode(bytes) }
    public var description: String { hex }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

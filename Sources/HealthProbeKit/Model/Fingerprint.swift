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

/// Encodes typed fields unambiguously — each a tag byte and a length prefix — into one buffer,
/// then hashes the buffer with SHA-256 in a single call.
struct FingerprintHasher {
    private var buffer: [UInt8] = []

    init() {
        buffer.reserveCapacity(512)
    }

    mutating func add(_ tag: UInt8, _ text: String?) {
        guard let text else { return addAbsent(tag) }
        buffer.append(tag)
        appendLength(UInt32(text.utf8.count))
        buffer.appendUTF8(text)
    }

    /// The same encoding as for a `String`, from UTF-8 bytes a batch holds.
    mutating func add(_ tag: UInt8, _ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer) {
        guard !span.isNull else { return addAbsent(tag) }
        buffer.append(tag)
        appendLength(UInt32(span.length))
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[span.range]))
    }

    mutating func add(_ tag: UInt8, _ number: Int64?) {
        guard let number else { return addAbsent(tag) }
        buffer.append(tag | 0x80)
        withUnsafeBytes(of: UInt64(bitPattern: number).littleEndian) { buffer.append(contentsOf: $0) }
    }

    private mutating func addAbsent(_ tag: UInt8) {
        buffer.append(tag)
        buffer.append(0xFF)
    }

    /// Four bytes, least significant first.
    private mutating func appendLength(_ length: UInt32) {
        withUnsafeBytes(of: length.littleEndian) { buffer.append(contentsOf: $0) }
    }

    /// A stable 64-bit FNV-1a hash of the encoding: cheap, for index keys that are always
    /// confirmed against full fingerprints.
    func stableHash() -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in buffer {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Empties the buffer, keeping its storage, for the next encoding.
    mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
    }

    /// MurmurHash3 of the encoding: the semantic and fuzzy fingerprints, which need no
    /// cryptographic strength and are made for every record.
    func contentHash() -> Fingerprint {
        let (h1, h2) = buffer.withUnsafeBytes { MurmurHash3.hash128($0) }
        return Fingerprint(high: h1, low: h2)
    }

    /// SHA-256 of the encoding, truncated: the strict fingerprint.
    func finalize() -> Fingerprint {
        buffer.withUnsafeBytes { Fingerprint(digest: SHA256.hash(data: $0)) }
    }
}

import Crypto

/// Encodes typed fields unambiguously — each a tag byte and a length prefix — into one buffer,
/// then hashes the buffer in a single call: SHA-256 for strict fingerprints, MurmurHash3 for
/// semantic and fuzzy ones, FNV-1a for index keys.
///
/// The buffer is raw memory the hasher owns, so it cannot be copied: an import encodes about
/// fifty fields per record, and an array's capacity and uniqueness checks on each append cost
/// more than the copying itself.
struct FingerprintHasher: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0

    init() {
        capacity = 512
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
    }

    private var encoding: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Empties the buffer, keeping its storage, for the next encoding.
    mutating func reset() {
        count = 0
    }

    mutating func add(_ tag: UInt8, _ text: String?) {
        guard let text else { return addAbsent(tag) }
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { append(tag, UnsafeRawBufferPointer($0)) }
        if appended == nil { Array(text.utf8).withUnsafeBytes { append(tag, $0) } }
    }

    /// The same encoding as for a `String`, from UTF-8 bytes a batch holds.
    mutating func add(_ tag: UInt8, _ span: PreparedBatch.Span, in bytes: UnsafeRawBufferPointer) {
        guard !span.isNull else { return addAbsent(tag) }
        append(tag, UnsafeRawBufferPointer(rebasing: bytes[span.range]))
    }

    mutating func add(_ tag: UInt8, _ number: Int64?) {
        guard let number else { return addAbsent(tag) }
        reserve(9)
        base.storeBytes(of: tag | 0x80, toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: UInt64(bitPattern: number).littleEndian, toByteOffset: count + 1, as: UInt64.self)
        count += 9
    }

    private mutating func addAbsent(_ tag: UInt8) {
        reserve(2)
        base.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: 0xFF, toByteOffset: count + 1, as: UInt8.self)
        count += 2
    }

    /// The tag, the length as four bytes least significant first, then the bytes.
    private mutating func append(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
        reserve(5 + bytes.count)
        base.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: UInt32(bytes.count).littleEndian, toByteOffset: count + 1, as: UInt32.self)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            (base + count + 5).copyMemory(from: source, byteCount: bytes.count)
        }
        count += 5 + bytes.count
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    private mutating func grow(toHold extra: Int) {
        var larger = capacity * 2
        while count + extra > larger { larger *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = larger
    }

    /// A stable 64-bit FNV-1a hash of the encoding: cheap, for index keys that are always
    /// confirmed against full fingerprints.
    func stableHash() -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in encoding {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// MurmurHash3 of the encoding: the semantic and fuzzy fingerprints, which need no
    /// cryptographic strength and are made for every record.
    func contentHash() -> Fingerprint {
        let (h1, h2) = MurmurHash3.hash128(encoding)
        return Fingerprint(high: h1, low: h2)
    }

    /// SHA-256 of the encoding, truncated: the strict fingerprint.
    func finalize() -> Fingerprint {
        Fingerprint(digest: SHA256.hash(data: encoding))
    }
}

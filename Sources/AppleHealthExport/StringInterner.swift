import Foundation

/// Hands out one shared `String` for byte spans that repeat — sample types, source names,
/// units, metadata keys, device descriptions — so that a million records do not allocate a
/// million copies of the same few dozen strings. Bounded: once full, it stops remembering.
/// One per export read, on the parser's thread.
final class StringInterner {
    private struct Slot {
        var hash: UInt64
        var bytes: [UInt8]
        var string: String
    }

    private var slots: [Slot?]
    private var count = 0
    private let mask: Int

    init(capacity: Int = 1 << 14) {
        slots = Array(repeating: nil, count: capacity)
        mask = capacity - 1
    }

    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Short strings are stored inline by Swift: nothing to share.
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        let hash = Self.hash(bytes)
        var index = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash, slot.bytes.count == bytes.count,
                slot.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
            {
                return slot.string
            }
            index = (index + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if count < slots.count / 2 {
            slots[index] = Slot(hash: hash, bytes: Array(bytes), string: string)
            count += 1
        }
        return string
    }

    /// Eight bytes at a time, mixed by multiplication: these spans are 16 to a few hundred bytes.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x94D0_49BB_1331_11EB
            offset += 1
        }
        return hash ^ (hash >> 31)
    }
}

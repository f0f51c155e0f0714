import Foundation

/// Hands out one shared `String` for byte spans that repeat — sample types, source names,
/// units, metadata keys, device descriptions — so that a million records do not allocate a
/// million copies of the same few dozen strings. Bounded: once full, it stops remembering.
/// One per export read, on the parser's thread.
///
/// The bytes of what it remembers lie in one arena it owns, and each slot is plain numbers: a
/// lookup compares bytes without retaining anything, and only a hit's string is retained, to be
/// returned.
final class StringInterner {
    private struct Slot {
        var hash: UInt64
        /// Where the bytes lie in the arena; a negative length marks an empty slot.
        var offset: Int
        var length: Int

        static let empty = Slot(hash: 0, offset: 0, length: -1)
    }

    private var slots: [Slot]
    private var strings: [String]
    private var count = 0
    private let mask: Int
    private var arena: UnsafeMutableRawPointer
    private var arenaCapacity: Int
    private var arenaUsed = 0

    init(capacity: Int = 1 << 14) {
        slots = Array(repeating: .empty, count: capacity)
        strings = Array(repeating: "", count: capacity)
        mask = capacity - 1
        arenaCapacity = 1 << 16
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
    }

    deinit {
        arena.deallocate()
    }

    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Short strings are stored inline by Swift: nothing to share.
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        let hash = Self.hash(bytes)
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].length >= 0 {
            let slot = slots[index]
            if slot.hash == hash, slot.length == bytes.count,
                memcmp(arena + slot.offset, bytes.baseAddress!, bytes.count) == 0
            {
                return strings[index]
            }
            index = (index + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if count < slots.count / 2 {
            slots[index] = Slot(hash: hash, offset: remember(bytes), length: bytes.count)
            strings[index] = string
            count += 1
        }
        return string
    }

    /// Copies `bytes` into the arena; returns where they start.
    private func remember(_ bytes: UnsafeRawBufferPointer) -> Int {
        if arenaUsed + bytes.count > arenaCapacity {
            var larger = arenaCapacity * 2
            while arenaUsed + bytes.count > larger { larger *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
            grown.copyMemory(from: arena, byteCount: arenaUsed)
            arena.deallocate()
            arena = grown
            arenaCapacity = larger
        }
        let offset = arenaUsed
        (arena + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        arenaUsed += bytes.count
        return offset
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

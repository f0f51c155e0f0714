/// Hands out one shared `String` for byte spans that repeat — sample types, source names,
/// units, metadata keys, device descriptions — so that a million records do not allocate a
/// million copies of the same few dozen strings. Bounded: once full, it stops remembering.
struct StringInterner {
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

    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Short strings are stored inline by Swift: nothing to share.
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var index = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash, slot.bytes.elementsEqual(bytes) { return slot.string }
            index = (index + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if count < slots.count / 2 {
            slots[index] = Slot(hash: hash, bytes: Array(bytes), string: string)
            count += 1
        }
        return string
    }
}

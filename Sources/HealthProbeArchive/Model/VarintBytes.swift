/// Zigzag varints, the integers of the archive's compact encodings (``VoltageCoding``,
/// ``TrackCoding``): small magnitudes of either sign take few bytes.
enum VarintBytes {
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        appendUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Reads bytes from `index` on; nil past the end or on a malformed varint.
    struct Reader {
        let bytes: [UInt8]
        var index: Int

        var atEnd: Bool { index >= bytes.count }

        mutating func unsigned() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func signed() -> Int64? {
            unsigned().map { Int64(bitPattern: $0 >> 1) ^ -Int64(bitPattern: $0 & 1) }
        }

        /// A count, refused when it could not fit in what is left (one byte an item at least).
        mutating func count() -> Int? {
            guard let value = unsigned(), value <= UInt64(bytes.count - index) else { return nil }
            return Int(value)
        }
    }
}

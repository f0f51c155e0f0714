/// Lowercase hexadecimal text, two digits a byte, without `String(format:)` (which goes through
/// Foundation's formatter once per byte).
package enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    package static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Sixteen digits, most significant first.
    static func encode(_ value: UInt64) -> String {
        encode((0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) })
    }
}

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

    /// The bytes `text` spells in hexadecimal (either case); nil when it is not two digits a byte.
    static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

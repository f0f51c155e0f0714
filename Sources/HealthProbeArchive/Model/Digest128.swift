/// A content's digest (32 hexadecimal digits, ``FileContent/digest(_:)``) kept as two numbers:
/// 16 bytes in memory, not a 32-character string.
struct Digest128: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init?(hex: String) {
        let digits = hex.utf8
        guard digits.count == 32, let high = UInt64(hex.prefix(16), radix: 16),
            let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.high = high
        self.low = low
    }

    var hex: String { HexText.encode(high) + HexText.encode(low) }
}

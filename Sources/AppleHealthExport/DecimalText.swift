/// Exact decimal numbers as fixed-point integers: `-48.673`, `37.781672`, `-265,868` (a decimal
/// comma, as some locales write) — parsed without floating point, written back as they were.
public enum DecimalText {
    /// The most digits after the point kept; finer numbers are refused.
    public static let maximumDecimals = 9
    public static let scale: Int64 = 1_000_000_000

    /// The number `bytes` holds, scaled by 10^``maximumDecimals``, and its digits after the
    /// point; nil when it is not one number (or has more than 9 digits either side of the point).
    public static func parse(_ bytes: some Collection<UInt8>) -> (value: Int64, decimals: Int)? {
        var negative = false
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var wholeDigits = 0
        var places = 0
        var afterPoint = false
        for (index, byte) in bytes.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                guard !afterPoint, wholeDigits > 0 else { return nil }
                afterPoint = true
                continue
            }
            let digit = Int64(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            if afterPoint {
                places += 1
                guard places <= maximumDecimals else { return nil }
                fraction = fraction * 10 + digit
            } else {
                wholeDigits += 1
                guard wholeDigits <= 9 else { return nil }
                whole = whole * 10 + digit
            }
        }
        guard wholeDigits > 0, !afterPoint || places > 0 else { return nil }
        let scaled = whole * scale + fraction * power(maximumDecimals - places)
        return (negative ? -scaled : scaled, places)
    }

    /// A scaled value as text with `decimals` digits after the point.
    public static func text(_ scaled: Int64, decimals: Int) -> String {
        let kept = scaled / power(maximumDecimals - decimals)
        guard decimals > 0 else { return String(kept) }
        let unit = UInt64(power(decimals))
        let magnitude = kept.magnitude
        let fraction = String(magnitude % unit)
        let padded = String(repeating: "0", count: decimals - fraction.count) + fraction
        return "\(kept < 0 ? "-" : "")\(magnitude / unit).\(padded)"
    }

    public static func power(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<max(exponent, 0) { result *= 10 }
        return result
    }
}

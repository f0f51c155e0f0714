/// A record's 16-byte fingerprint as a hashable value.
struct FingerprintKey: Hashable {
    let high: UInt64
    let low: UInt64

    init?(_ bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes, bytes.count >= 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[index + 8])
        }
        self.high = high
        self.low = low
    }

    /// Lowercase hex, a workout's `uid` where it has no HealthKit UUID.
    var hex: String {
        let text = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        return text
    }
}

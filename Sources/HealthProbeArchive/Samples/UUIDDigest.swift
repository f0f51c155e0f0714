/// An order-independent digest of a set of HealthKit UUIDs (their archive text): the wrapping
/// sum of a 64-bit hash of each. A verification scan adds up the UUIDs it meets, the archive adds
/// up those it holds; equal counts and digests say the two sets are the same, with a chance of a
/// false match of about one in 2^64, and without looking a single UUID up.
struct UUIDDigest: Equatable, Sendable {
    var count = 0
    var sum: UInt64 = 0

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: $0) }
    }

    mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        sum &+= Self.hash(bytes)
        count += 1
    }

    /// A 64-bit hash of one UUID's archive text: FNV-1a, then a SplitMix64 finaliser so that
    /// nearby texts spread over the whole word.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash($0) }
    }
}

/// Caps that keep a hostile or damaged input from exhausting the machine.
public struct ReadLimits: Sendable {
    /// No zip entry may expand to more than its compressed size times this ratio. Apple's XML
    /// compresses about 15:1; deflate's own ceiling is about 1032:1.
    public var maximumCompressionRatio: Int64
    /// No input is read beyond this many uncompressed bytes.
    public var maximumUncompressedBytes: Int64

    public init(maximumCompressionRatio: Int64 = 250, maximumUncompressedBytes: Int64 = 64 << 30) {
        self.maximumCompressionRatio = maximumCompressionRatio
        self.maximumUncompressedBytes = maximumUncompressedBytes
    }

    public static let standard = ReadLimits()

    func cap(compressedSize: Int64) -> Int64 {
        let (product, overflow) = compressedSize.multipliedReportingOverflow(by: maximumCompressionRatio)
        return min(maximumUncompressedBytes, overflow ? .max : max(product, 1 << 20))
    }
}

import Foundation

extension Array where Element == UInt8 {
    /// Whether these are exactly the bytes of `other`. The caches of recent devices and source
    /// names compare keys this way: not by `String` equality, under which two Unicode forms of
    /// one name are equal, though their text differs.
    package func hasBytes(of other: UnsafeRawBufferPointer) -> Bool {
        count == other.count
            && (other.isEmpty || withUnsafeBytes { memcmp($0.baseAddress!, other.baseAddress!, other.count) == 0 })
    }
}

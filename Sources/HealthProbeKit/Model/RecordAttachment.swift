import CZlibShim
import Foundation

/// What a record carries beyond its row: an ECG recording's voltages (later a clinical
/// document's FHIR resource, a route's track points), compressed. Stored once per record, beside
/// it (`recordAttachment`); the record's fingerprints hold a digest of the content, never the
/// file name it came in.
public struct RecordAttachment: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// ``VoltageCoding``'s bytes.
        case electrocardiogramVoltages
    }

    public var kind: Kind
    /// The file the content came in, as the export held it (`/electrocardiograms/ecg_….csv`).
    public var fileName: String?
    /// The content, zlib-compressed (``compressed(_:)``).
    public var content: [UInt8]

    public init(kind: Kind, fileName: String?, content: [UInt8]) {
        self.kind = kind
        self.fileName = fileName
        self.content = content
    }

    /// The uncompressed content, at most `limit` bytes; nil when it does not inflate.
    public func inflated(limit: Int = 256 << 20) -> [UInt8]? {
        Self.inflate(content, limit: limit)
    }

    /// `bytes` compressed with zlib (level 6), behind their length as 4 bytes, big-endian.
    public static func compressed(_ bytes: [UInt8]) -> [UInt8] {
        var bound = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(bound) + 4)
        let length = UInt32(clamping: bytes.count)
        output[0] = UInt8(length >> 24)
        output[1] = UInt8(truncatingIfNeeded: length >> 16)
        output[2] = UInt8(truncatingIfNeeded: length >> 8)
        output[3] = UInt8(truncatingIfNeeded: length)
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress! + 4, &bound, input.baseAddress, uLong(input.count), 6)
            }
        }
        precondition(status == Z_OK, "zlib could not compress \(bytes.count) bytes in a buffer of its own bound")
        return Array(output.prefix(Int(bound) + 4))
    }

    static func inflate(_ content: [UInt8], limit: Int) -> [UInt8]? {
        guard content.count >= 4 else { return nil }
        let length = Int(content[0]) << 24 | Int(content[1]) << 16 | Int(content[2]) << 8 | Int(content[3])
        guard length <= limit else { return nil }
        var output = [UInt8](repeating: 0, count: max(length, 1))
        var produced = uLong(length)
        let status = output.withUnsafeMutableBufferPointer { out in
            content.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &produced, input.baseAddress! + 4, uLong(input.count - 4))
            }
        }
        guard status == Z_OK, produced == uLong(length) else { return nil }
        return Array(output.prefix(length))
    }
}

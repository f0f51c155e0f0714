import CZlibShim
import Crypto
import Foundation

/// A file of an export beside its main XML that a record came in (an ECG recording) or refers to
/// (a clinical document, a workout route), as one capture held it: its kind, its path as the
/// export wrote it, and — when read — its content.
public struct AttachedFile: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// `electrocardiograms/*.csv`: ``VoltageCoding``'s bytes.
        case electrocardiogram
        /// `clinical-records/*.json`: the FHIR resource as the export wrote it.
        case clinicalDocument
        /// `workout-routes/*.gpx`: ``TrackCoding``'s bytes.
        case route
        /// `export_cda.xml` beside the main XML: the clinical summary (HL7 CDA) the Health app
        /// writes for people with health records, as its bytes. No record refers to it.
        case clinicalSummary
    }

    public var kind: Kind
    /// As the export writes it (`/electrocardiograms/ecg_2000-01-01.csv`). Names carry local
    /// dates and change from export to export: never part of a record's identity.
    public var path: String
    /// Known when the record is mapped (an ECG's); otherwise read beside the import
    /// (the import prefetches referenced files) and given to the record when both are in.
    public var content: FileContent?

    public init(kind: Kind, path: String, content: FileContent? = nil) {
        self.kind = kind
        self.path = path
        self.content = content
    }
}

/// A file's content as the archive keeps it: compressed, and named by the digest of what
/// identifies it (an ECG's voltages, a document's canonical JSON, a route's track points), not of
/// its bytes, so that a file written again with a new export time is the same content. Two
/// contents are equal when their digests and items are.
public struct FileContent: Sendable, Hashable {
    public var digest: String
    /// How many items it holds: a route's points, an ECG's voltages, a document's bytes.
    public var items: Int
    /// zlib-compressed (``compressed(_:)``); nil while the bytes are kept as they are.
    private var packed: [UInt8]?
    /// The bytes as they are, when they were not compressed: the archive held their digest
    /// already, so that a re-check compresses nothing it would not store.
    private var plain: [UInt8]?
    /// The digest of the bytes it was read from, when they name it from export to export (a
    /// route's, ``RouteSourceDigest``).
    package var source: String?

    public init(digest: String, compressed: [UInt8], items: Int) {
        self.digest = digest
        self.packed = compressed
        self.items = items
    }

    /// `bytes` compressed, named by the first 16 bytes of the SHA-256 of `identity` (the bytes
    /// themselves when nil).
    public init(_ bytes: [UInt8], identity: [UInt8]? = nil, items: Int) {
        self.init(bytes, identity: identity, items: items) { _ in false }
    }

    /// As ``init(_:identity:items:)``, unless the archive `holds` the digest: then the bytes are
    /// kept as they are (compressed only if the archive turns out not to hold them when they are
    /// stored).
    package init(_ bytes: [UInt8], identity: [UInt8]? = nil, items: Int, unlessHeld holds: (String) -> Bool) {
        digest = Self.digest(identity ?? bytes)
        self.items = items
        if holds(digest) {
            plain = bytes
        } else {
            packed = Self.compressed(bytes)
        }
    }

    /// A content the archive holds, known by the bytes it was read from: without its bytes.
    package init(held digest: String, items: Int, source: String) {
        self.digest = digest
        self.items = items
        self.source = source
    }

    /// The content compressed, as the archive stores it; empty for a content known to be held
    /// and kept without its bytes (``hasBytes``).
    public var compressed: [UInt8] { packed ?? plain.map(Self.compressed) ?? [] }

    /// Whether the bytes were left uncompressed, or not kept, because the archive held their digest.
    var isLeftUncompressed: Bool { packed == nil }

    /// Whether it carries its bytes: false for a content the archive holds, known by its source.
    var hasBytes: Bool { packed != nil || plain != nil }

    public static func == (left: FileContent, right: FileContent) -> Bool {
        left.digest == right.digest && left.items == right.items
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(items)
    }

    /// The first 16 bytes of a SHA-256, as hex.
    public static func digest(_ bytes: [UInt8]) -> String {
        HexText.encode(SHA256.hash(data: bytes).prefix(16))
    }

    /// The uncompressed content, at most `limit` bytes; nil when it does not inflate.
    public func inflated(limit: Int = 256 << 20) -> [UInt8]? {
        if let plain { return plain.count <= limit ? plain : nil }
        return Self.inflate(packed ?? [], limit: limit)
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

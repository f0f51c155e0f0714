import AppleHealthExport
import Foundation

/// A small JSON value whose text is canonical: object keys are written in the order given
/// (callers sort them), no insignificant white space, fixed escaping. Used both to store
/// metadata and children and to fingerprint them, so one encoding serves both.
public indirect enum CanonicalJSON: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case array([CanonicalJSON])
    case object([(String, CanonicalJSON)])

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    public var text: String {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Written as UTF-8 bytes: appending to a `String` piece by piece cost more than the rest of
    /// a record's mapping.
    func write(to output: inout [UInt8]) {
        switch self {
        case .string(let value):
            Self.writeString(value, to: &output)
        case .integer(let value):
            output.appendUTF8(String(value))
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            output.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(pair.0, to: &output)
                output.append(UInt8(ascii: ":"))
                pair.1.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as is.
    public static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let start = output.count
        output.appendUTF8(value)
        escapeIfNeeded(from: start, in: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// ``writeString(_:to:)`` of text's UTF-8 bytes.
    static func writeString(bytes value: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let start = output.count
        output.append(contentsOf: value)
        escapeIfNeeded(from: start, in: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Escapes the string's bytes written from `start` on, if any needs it.
    private static func escapeIfNeeded(from start: Int, in output: inout [UInt8]) {
        guard output[start...].contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        else { return }
        let written = Array(output[start...])
        output.removeSubrange(start...)
        for byte in written { appendEscaped(byte, to: &output) }
    }

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case ..<0x20:
            output.append(contentsOf: Array("\\u00".utf8))
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0xF)])
        default: output.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Attributes as an object sorted by name, timestamps rendered in UTC.
    static func attributes(_ attributes: [AppleExportAttribute]) -> CanonicalJSON {
        .object(
            attributes.sorted { $0.name < $1.name }.map { attribute in
                (attribute.name, .string(attribute.timestamp.map(UTCText.iso8601) ?? attribute.value))
            })
    }

    static func generic(_ element: GenericElement) -> CanonicalJSON {
        var pairs: [(String, CanonicalJSON)] = [
            ("name", .string(element.name)), ("attributes", attributes(element.attributes)),
        ]
        if !element.children.isEmpty { pairs.append(("children", .array(element.children.map(generic)))) }
        if let text = element.text { pairs.append(("text", .string(text))) }
        return .object(pairs)
    }

    /// Metadata as `[[key, value], …]`, sorted (keys repeat), timestamps in UTC; nil when empty.
    static func metadata(_ entries: [MetadataEntry]) -> CanonicalJSON? {
        guard !entries.isEmpty else { return nil }
        return .array(sortedMetadataPairs(entries).map { .array([.string($0.0), .string($0.1)]) })
    }

    /// The same text as `metadata(entries)?.text`, written directly: most records carry
    /// metadata, so this runs a million times an import.
    static func metadataText(_ entries: [MetadataEntry]) -> String? {
        guard !entries.isEmpty else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(128)
        writeMetadata(entries, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends ``metadataText(_:)``'s text; nothing when there are no entries.
    static func writeMetadata(_ entries: [MetadataEntry], to output: inout [UInt8]) {
        guard !entries.isEmpty else { return }
        output.append(UInt8(ascii: "["))
        if entries.count == 1, let entry = entries.first {
            // The common case, with nothing to sort: no pairs, no timestamp string.
            output.append(UInt8(ascii: "["))
            writeString(entry.key, to: &output)
            output.append(UInt8(ascii: ","))
            if let timestamp = entry.timestamp {
                writeInstant(timestamp, to: &output)
            } else {
                writeString(entry.value, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        } else {
            for (index, pair) in sortedMetadataPairs(entries).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "["))
                writeString(pair.0, to: &output)
                output.append(UInt8(ascii: ","))
                writeString(pair.1, to: &output)
                output.append(UInt8(ascii: "]"))
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A metadata date as a JSON string of its instant in UTC.
    static func writeInstant(_ timestamp: AppleExportTimestamp, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        UTCText.appendISO8601(seconds: Double(timestamp.secondsSince1970), to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the metadata as the export wrote it — dates with the offset they were written
    /// with (`2000-01-01 08:00:00 +0100`) — in the same order as ``writeMetadata(_:to:)``; nothing
    /// when no value is a date, as the stored metadata then is the text as written.
    static func writeMetadataAsWritten(_ entries: [MetadataEntry], to output: inout [UInt8]) {
        guard entries.contains(where: { $0.timestamp != nil }) else { return }
        let pairs = entries.map {
            (key: $0.key, sortValue: $0.timestamp.map(UTCText.iso8601) ?? $0.value, value: $0.value)
        }
        .sorted { $0.key != $1.key ? $0.key < $1.key : $0.sortValue < $1.sortValue }
        output.append(UInt8(ascii: "["))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "["))
            writeString(pair.key, to: &output)
            output.append(UInt8(ascii: ","))
            writeString(pair.value, to: &output)
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// ``writeMetadataAsWritten(_:to:)``'s text; nil when no value is a date.
    static func metadataAsWrittenText(_ entries: [MetadataEntry]) -> String? {
        var output: [UInt8] = []
        writeMetadataAsWritten(entries, to: &output)
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }

    private static func sortedMetadataPairs(_ entries: [MetadataEntry]) -> [(String, String)] {
        let pairs = entries.map { ($0.key, $0.timestamp.map(UTCText.iso8601) ?? $0.value) }
        guard pairs.count > 1 else { return pairs }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    }
}

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
        if output[start...].contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.removeSubrange(start...)
            for byte in value.utf8 { appendEscaped(byte, to: &output) }
        }
        output.append(UInt8(ascii: "\""))
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
                output.append(UInt8(ascii: "\""))
                UTCText.appendISO8601(seconds: Double(timestamp.secondsSince1970), to: &output)
                output.append(UInt8(ascii: "\""))
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

/// UTC renderings of instants.
public enum UTCText {
    /// `2000-01-01T00:00:00Z`.
    public static func iso8601(_ timestamp: AppleExportTimestamp) -> String {
        iso8601(seconds: Double(timestamp.secondsSince1970))
    }

    /// `2000-01-01T00:00:00Z`, with fractional seconds only when there are any.
    public static func iso8601(_ date: Date) -> String {
        iso8601(seconds: date.timeIntervalSince1970)
    }

    /// `2000-01-01T00:00:00Z`, with fractional seconds only when there are any.
    public static func iso8601(seconds: Double) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(32)
        appendISO8601(seconds: seconds, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``iso8601(seconds:)``, appended to UTF-8 text.
    static func appendISO8601(seconds: Double, to text: inout [UInt8]) {
        let whole = Int64(seconds.rounded(.down))
        let (days, secondOfDay) = CivilCalendar.day(ofSeconds: whole)
        appendDay(days, to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, 2, to: &text)
        let fraction = seconds - Double(whole)
        if fraction > 0.0000005 {
            text.append(UInt8(ascii: "."))
            appendPadded(Int((fraction * 1_000_000).rounded()), 6, to: &text)
            while text.last == UInt8(ascii: "0") { text.removeLast() }
        }
        text.append(UInt8(ascii: "Z"))
    }

    /// `2000-01-01`.
    public static func day(_ daysSince1970: Int64) -> String {
        var text: [UInt8] = []
        appendDay(daysSince1970, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDay(_ daysSince1970: Int64, to text: inout [UInt8]) {
        let date = CivilCalendar.date(daysSince1970: daysSince1970)
        appendPadded(date.year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(date.day, 2, to: &text)
    }

    /// The decimal digits of `value`, zeros before them up to `width`.
    private static func appendPadded(_ value: Int, _ width: Int, to text: inout [UInt8]) {
        guard value >= 0 else {
            // Years before 1 BC only; written as they always were, zeros before the sign.
            let digits = String(value).utf8
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
            return text.append(contentsOf: digits)
        }
        var digits = 1
        var scale = 1
        while scale <= value / 10 {
            scale *= 10
            digits += 1
        }
        if digits < width { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        var rest = value
        while scale > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / scale))
            rest %= scale
            scale /= 10
        }
    }
}

import AppleHealthExport

/// A small JSON value whose text is canonical: object keys are written in the order given
/// (callers sort them), no insignificant white space, fixed escaping. Used both to store
/// metadata and children and to fingerprint them, so one encoding serves both.
indirect enum CanonicalJSON: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case array([CanonicalJSON])
    case object([(String, CanonicalJSON)])

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    func write(to output: inout String) {
        switch self {
        case .string(let value):
            Self.writeString(value, to: &output)
        case .integer(let value):
            output.append(String(value))
        case .array(let values):
            output.append("[")
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(",") }
                value.write(to: &output)
            }
            output.append("]")
        case .object(let pairs):
            output.append("{")
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output.append(",") }
                Self.writeString(pair.0, to: &output)
                output.append(":")
                pair.1.write(to: &output)
            }
            output.append("}")
        }
    }

    static func writeString(_ value: String, to output: inout String) {
        output.append("\"")
        var needsEscaping = false
        for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            output.append(value)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": output.append("\\\"")
                case "\\": output.append("\\\\")
                case "\n": output.append("\\n")
                case "\r": output.append("\\r")
                case "\t": output.append("\\t")
                case let control where control.value < 0x20:
                    output.append("\\u00")
                    output.append(hexDigits[Int(control.value >> 4)])
                    output.append(hexDigits[Int(control.value & 0xF)])
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }

    private static let hexDigits: [String] = (0..<16).map { String($0, radix: 16) }

    /// Attributes as an object sorted by name, timestamps rendered in UTC.
    static func attributes(_ attributes: [ExportAttribute]) -> CanonicalJSON {
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
        var output = "["
        for (index, pair) in sortedMetadataPairs(entries).enumerated() {
            output.append(index == 0 ? "[" : ",[")
            writeString(pair.0, to: &output)
            output.append(",")
            writeString(pair.1, to: &output)
            output.append("]")
        }
        output.append("]")
        return output
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
    public static func iso8601(_ timestamp: ExportTimestamp) -> String {
        iso8601(seconds: Double(timestamp.secondsSince1970))
    }

    /// `2000-01-01T00:00:00Z`, with fractional seconds only when there are any.
    public static func iso8601(seconds: Double) -> String {
        let whole = Int64(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        let date = CivilCalendar.date(daysSince1970: days)
        var text = pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        let fraction = seconds - Double(whole)
        if fraction > 0.0000005 {
            let micros = Int((fraction * 1_000_000).rounded())
            var digits = pad(micros, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// `2000-01-01`.
    public static func day(_ daysSince1970: Int64) -> String {
        let date = CivilCalendar.date(daysSince1970: daysSince1970)
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

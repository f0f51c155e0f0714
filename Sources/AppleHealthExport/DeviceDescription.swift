/// The fields of an `HKDevice` description as Apple writes it in an export's `device` attribute:
/// `<<HKDevice: 0x…>, name:…, manufacturer:…, model:…, hardware:…, software:…>`.
///
/// The `0x…` memory address changes from record to record for one physical device, so it is
/// dropped. Values may contain commas (`hardware:Watch2,4`), so the text is split only before the
/// known `key:` prefixes. Text from writers that do not follow the form is kept in ``freeText``.
public struct DeviceDescription: Sendable, Hashable {
    /// Known keys in the order Apple writes them.
    public static let knownKeys = [
        "name", "manufacturer", "model", "hardware", "firmware", "software",
        "localIdentifier", "UDIDeviceIdentifier", "creation date",
    ]

    /// `(key, value)` pairs in the order written, the address left out.
    public var fields: [(key: String, value: String)]
    /// The whole text when it is not an `HKDevice` description.
    public var freeText: String?

    public init(fields: [(key: String, value: String)], freeText: String? = nil) {
        self.fields = fields
        self.freeText = freeText
    }

    public subscript(key: String) -> String? {
        fields.first(where: { $0.key == key })?.value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.freeText == rhs.freeText && lhs.fields.elementsEqual(rhs.fields, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(freeText)
        for field in fields {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }

    /// Parses an export's `device` attribute text.
    public init(exportText text: String) {
        let prefix = "<<HKDevice:"
        guard text.hasPrefix(prefix), let addressEnd = text.firstIndex(of: ">") else {
            self.init(fields: [], freeText: text)
            return
        }
        var body = text[text.index(after: addressEnd)...]
        if body.hasSuffix(">") { body = body.dropLast() }
        self.init(fields: Self.splitFields(body), freeText: nil)
    }

    private static func splitFields(_ body: Substring) -> [(key: String, value: String)] {
        // Find every ", key:" boundary for a known key; text between boundaries is the value.
        var starts: [(key: String, keyStart: String.Index, valueStart: String.Index)] = []
        var cursor = body.startIndex
        while cursor < body.endIndex {
            guard let comma = body[cursor...].firstIndex(of: ",") else { break }
            var afterComma = body.index(after: comma)
            while afterComma < body.endIndex, body[afterComma] == " " { afterComma = body.index(after: afterComma) }
            if let key = knownKeys.first(where: { body[afterComma...].hasPrefix($0 + ":") }) {
                let valueStart = body.index(afterComma, offsetBy: key.count + 1)
                starts.append((key, comma, valueStart))
                cursor = valueStart
            } else {
                cursor = afterComma
            }
        }
        var fields: [(key: String, value: String)] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].keyStart : body.endIndex
            fields.append((start.key, String(body[start.valueStart..<end])))
        }
        return fields
    }
}

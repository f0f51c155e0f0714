import Foundation

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

    /// The description without its address: `name:Apple Watch, manufacturer:Apple Inc., …`, or
    /// the free text of a writer that does not follow the form.
    public let canonicalText: String
    /// `(key, value)` pairs in the order written, the address left out.
    public let fields: [Field]
    /// Whether the text was not an `HKDevice` description.
    public let isFreeText: Bool

    public struct Field: Sendable, Hashable {
        public var key: String
        public var value: String
    }

    public subscript(key: String) -> String? {
        fields.first(where: { $0.key == key })?.value
    }

    /// Parses an export's `device` attribute text.
    public init(exportText text: String) {
        guard let body = Self.bodyWithoutAddress(text) else {
            self.init(canonicalText: text, fields: [], isFreeText: true)
            return
        }
        self.init(body: body)
    }

    /// Reads ``canonicalText`` back, as an archive stores it: the fields when it starts with a
    /// known key, else free text.
    public init(canonicalText text: String) {
        if Self.knownKeys.contains(where: { text.hasPrefix($0 + ":") }) {
            self.init(canonicalText: text, fields: Self.splitFields(text), isFreeText: false)
        } else {
            self.init(canonicalText: text, fields: [], isFreeText: true)
        }
    }

    /// Parses the part after the address (`name:…, model:…`), as ``bodyWithoutAddress(_:)`` gives it.
    init(body: String) {
        self.init(canonicalText: body, fields: Self.splitFields(body), isFreeText: false)
    }

    private init(canonicalText: String, fields: [Field], isFreeText: Bool) {
        self.canonicalText = canonicalText
        self.fields = fields
        self.isFreeText = isFreeText
    }

    /// The text after `<<HKDevice: 0x…>, ` without the closing `>`; nil when the text is not an
    /// HKDevice description.
    static func bodyWithoutAddress(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            bodyRange(raw, raw.indices).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    private static let prefix: StaticString = "<<HKDevice:"

    /// Where the body lies within `range` of `bytes`; nil when it is not an HKDevice description.
    /// Runs on every record that names its device, so it works on raw bytes.
    static func bodyRange(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int>? {
        let prefixLength = prefix.utf8CodeUnitCount
        guard range.count > prefixLength, let base = bytes.baseAddress,
            memcmp(base + range.lowerBound, prefix.utf8Start, prefixLength) == 0,
            let close = memchr(
                base + range.lowerBound + prefixLength, Int32(UInt8(ascii: ">")), range.count - prefixLength)
        else { return nil }
        var start = base.distance(to: UnsafeRawPointer(close)) + 1
        while start < range.upperBound, bytes[start] == UInt8(ascii: ",") || bytes[start] == UInt8(ascii: " ") {
            start += 1
        }
        var end = range.upperBound
        if end > start, bytes[end - 1] == UInt8(ascii: ">") { end -= 1 }
        return start..<max(start, end)
    }

    private static func splitFields(_ body: String) -> [Field] {
        let bytes = Array(body.utf8)
        let keys = knownKeys.map { Array(($0 + ":").utf8) }
        // Boundaries: the body's start, and every ", " followed by a known key.
        var starts: [(key: Int, keyStart: Int, valueStart: Int)] = []
        func key(at index: Int) -> Int? {
            keys.firstIndex { key in
                index + key.count <= bytes.count && bytes[index..<(index + key.count)].elementsEqual(key)
            }
        }
        if let first = key(at: 0) { starts.append((first, 0, keys[first].count)) }
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ",") {
                var after = index + 1
                while after < bytes.count, bytes[after] == UInt8(ascii: " ") { after += 1 }
                if let found = key(at: after) {
                    starts.append((found, index, after + keys[found].count))
                    index = after + keys[found].count
                    continue
                }
            }
            index += 1
        }
        return starts.enumerated().map { position, start in
            let end = position + 1 < starts.count ? starts[position + 1].keyStart : bytes.count
            return Field(
                key: knownKeys[start.key], value: String(decoding: bytes[start.valueStart..<end], as: UTF8.self))
        }
    }
}

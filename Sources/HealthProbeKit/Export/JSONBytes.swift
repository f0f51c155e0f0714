import HealthProbeArchive

/// JSON pieces written straight into a byte buffer, for the exporter's hot loop.
enum JSONBytes {
    /// A JSON string of UTF-8 bytes: quotes, backslashes and control characters escaped.
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        if bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            var escaped: [UInt8] = []
            CanonicalJSON.writeString(String(decoding: bytes, as: UTF8.self), to: &escaped)
            output.append(contentsOf: escaped.dropFirst().dropLast())
        } else {
            output.append(contentsOf: bytes)
        }
        output.append(UInt8(ascii: "\""))
    }

    static func appendString(_ text: String, to output: inout [UInt8]) {
        CanonicalJSON.writeString(text, to: &output)
    }

    static func appendLiteral(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        output.append(contentsOf: String(value).utf8)
    }

    /// Whether the bytes are a number by JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        func digits() -> Int {
            let start = index
            while index < count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { return false }
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == count
    }

    /// Stored metadata (`[["key","value"],…]`, sorted) as an object, `{"key":"value",…}`; a key
    /// that repeats holds the array of its values, so nothing is lost. Text in another shape is
    /// written as it is (it is JSON).
    static func appendMetadataObject(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard let pairs = MetadataPairs.parse(text) else {
            output.append(contentsOf: text)
            return
        }
        output.append(UInt8(ascii: "{"))
        var index = 0
        while index < pairs.count {
            var end = index + 1
            while end < pairs.count, pairs[end].key.elementsEqual(pairs[index].key) { end += 1 }
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: pairs[index].key)
            output.append(UInt8(ascii: ":"))
            if end - index == 1 {
                output.append(contentsOf: pairs[index].value)
            } else {
                output.append(UInt8(ascii: "["))
                for position in index..<end {
                    if position > index { output.append(UInt8(ascii: ",")) }
                    output.append(contentsOf: pairs[position].value)
                }
                output.append(UInt8(ascii: "]"))
            }
            index = end
        }
        output.append(UInt8(ascii: "}"))
    }
}

/// The `[["key","value"],…]` form metadata is stored in, read as spans of its JSON strings
/// (quotes and escapes included, so they can be written back as they are).
enum MetadataPairs {
    struct Pair {
        var key: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
    }

    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> [Pair]? {
        var index = 0
        func expect(_ byte: UInt8) -> Bool {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
            return true
        }
        func string() -> UnsafeBufferPointer<UInt8>? {
            let start = index
            guard expect(UInt8(ascii: "\"")) else { return nil }
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return UnsafeBufferPointer(rebasing: text[start..<index])
                default: index += 1
                }
            }
            return nil
        }
        guard expect(UInt8(ascii: "[")) else { return nil }
        var pairs: [Pair] = []
        while index < text.count, text[index] != UInt8(ascii: "]") {
            if !pairs.isEmpty, !expect(UInt8(ascii: ",")) { return nil }
            guard expect(UInt8(ascii: "[")), let key = string(), expect(UInt8(ascii: ",")), let value = string(),
                expect(UInt8(ascii: "]"))
            else { return nil }
            pairs.append(Pair(key: key, value: value))
        }
        guard expect(UInt8(ascii: "]")), index == text.count else { return nil }
        return pairs
    }
}

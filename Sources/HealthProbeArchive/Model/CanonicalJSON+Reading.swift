/// Reads back the canonical text ``CanonicalJSON`` writes — strings, integers, arrays and
/// objects, no white space — which is how the archive stores metadata and details. It reads
/// only that form: anything else is nil. The SQLite export reads every workout's and
/// correlation's details, where Foundation's JSON decoders spent tens of microseconds each.
extension CanonicalJSON {
    public init?(canonicalText bytes: UnsafeBufferPointer<UInt8>) {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0), reader.index == bytes.count else { return nil }
        self = value
    }

    public subscript(key: String) -> CanonicalJSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var array: [CanonicalJSON] {
        if case .array(let values) = self { values } else { [] }
    }

    /// An object of strings as a dictionary (attributes, a member record's fields).
    public var strings: [String: String] {
        guard case .object(let pairs) = self else { return [:] }
        var result: [String: String] = [:]
        for (key, value) in pairs { if case .string(let text) = value { result[key] = text } }
        return result
    }

    /// Metadata pairs (`[["key","value"],…]`) as an object.
    public var metadataObject: CanonicalJSON {
        .object(
            array.compactMap { pair in
                let parts = pair.array
                guard parts.count == 2, let key = parts[0].string else { return nil }
                return (key, parts[1])
            })
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Deep enough for any element Apple writes; a guard against a hostile nesting.
        static let maximumDepth = 64

        mutating func value(depth: Int) -> CanonicalJSON? {
            guard index < bytes.count, depth < Self.maximumDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(CanonicalJSON.string)
            case UInt8(ascii: "["):
                index += 1
                var values: [CanonicalJSON] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    if !values.isEmpty { guard take(UInt8(ascii: ",")) else { return nil } }
                    guard let value = value(depth: depth + 1) else { return nil }
                    values.append(value)
                }
                return take(UInt8(ascii: "]")) ? .array(values) : nil
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(String, CanonicalJSON)] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    if !pairs.isEmpty { guard take(UInt8(ascii: ",")) else { return nil } }
                    guard let key = string(), take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else {
                        return nil
                    }
                    pairs.append((key, value))
                }
                return take(UInt8(ascii: "}")) ? .object(pairs) : nil
            default: return integer()
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func integer() -> CanonicalJSON? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return Int64(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                .map(CanonicalJSON.integer)
        }

        /// A string, its escapes (those ``CanonicalJSON`` writes) decoded.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var plain = true
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") {
                    plain = false
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let body = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            return plain ? String(decoding: body, as: UTF8.self) : Self.unescaped(body)
        }

        private static func unescaped(_ body: UnsafeBufferPointer<UInt8>) -> String? {
            var output: [UInt8] = []
            var position = 0
            while position < body.count {
                let byte = body[position]
                position += 1
                guard byte == UInt8(ascii: "\\") else {
                    output.append(byte)
                    continue
                }
                guard position < body.count else { return nil }
                let escape = body[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): output.append(10)
                case UInt8(ascii: "r"): output.append(13)
                case UInt8(ascii: "t"): output.append(9)
                case UInt8(ascii: "u"):
                    guard position + 4 <= body.count,
                        let code = UInt8(
                            String(
                                decoding: UnsafeBufferPointer(rebasing: body[position..<position + 4]), as: UTF8.self),
                            radix: 16)
                    else { return nil }
                    output.append(code)
                    position += 4
                default: output.append(escape)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }
}

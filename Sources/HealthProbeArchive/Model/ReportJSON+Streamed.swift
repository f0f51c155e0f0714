import Foundation

extension ReportJSON {
    /// A JSON object holding one long array, written as the array's elements come, so that an
    /// answer of ten years is never held whole: byte for byte what ``ReportJSON/encode(_:)``
    /// writes of the whole object (indented, keys sorted).
    public struct StreamedObject {
        private let tail: Data
        private let write: (Data) -> Void
        private var wroteElement = false

        /// `envelope`: the object with its array empty, under `arrayKey`, one of the object's own
        /// keys. Writes the object's beginning.
        public init<Envelope: Encodable>(
            _ envelope: Envelope, arrayKey: String, write: @escaping (Data) -> Void
        ) throws {
            let whole = try ReportJSON.encode(envelope)
            let opening = Data("\n  \"\(arrayKey)\" : [\n".utf8)
            guard let found = whole.range(of: opening + Data("\n  ]".utf8)) else {
                throw EncodingError.invalidValue(
                    arrayKey, .init(codingPath: [], debugDescription: "no empty array under this key"))
            }
            let split = found.lowerBound + opening.count
            tail = whole[split...]
            self.write = write
            write(whole[..<split])
        }

        /// Writes `elements` after those written before.
        public mutating func append<Element: Encodable>(_ elements: [Element]) throws {
            guard !elements.isEmpty else { return }
            // "[\n  {\n    …\n  },\n  …\n]": the elements two spaces in; inside the object, four.
            let array = try ReportJSON.encode(elements)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(array.count + array.count / 8)
            if wroteElement { bytes += Array(",\n".utf8) }
            bytes += [0x20, 0x20]
            for byte in array.dropFirst(2).dropLast(2) {
                bytes.append(byte)
                if byte == 0x0A { bytes += [0x20, 0x20] }
            }
            wroteElement = true
            write(Data(bytes))
        }

        /// Writes the object's end.
        public func finish() {
            write(tail)
        }
    }
}

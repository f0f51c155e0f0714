/// Where a route's GPX says when the export was made. Apple writes every route of an export with
/// the export's own time near its start (`<metadata>`, then `<time>2000-01-01T00:00:00Z</time>`):
/// the only bytes of an unchanged route that differ from one export to the next. Setting them
/// aside lets a route's bytes name it across exports, so that a re-check need not read its
/// track again.
///
/// Only that exact shape is set aside: the XML declaration and the `<gpx>` start tag before it,
/// nothing but white space around the elements, a time of digits as ISO 8601 writes it. Two
/// files alike but for such an element read as the same track, because the reader skips
/// `<metadata>`; a file of any other shape keeps every byte.
public enum GPXExportTime {
    /// How far into a file the element is looked for: Apple's ends at about 320 bytes.
    public static let searchedBytes = 1_024

    /// The bytes of `head` (a file's first bytes) that hold the `<metadata>` element with the
    /// export's time, or nil when it does not hold one of that shape.
    public static func span(in head: UnsafeRawBufferPointer) -> Range<Int>? {
        let bytes = head.prefix(searchedBytes)
        guard let start = firstIndex(of: opening, in: bytes), markupBefore(start, in: bytes) else { return nil }
        var cursor = skippingSpace(bytes, from: start + opening.count)
        guard let timeStart = expect(time, in: bytes, at: cursor) else { return nil }
        cursor = timeStart
        while cursor < bytes.count, isTimeByte(bytes[cursor]) { cursor += 1 }
        guard isISO8601(bytes, timeStart..<cursor), let timeEnd = expect(timeClosing, in: bytes, at: cursor),
            let end = expect(closing, in: bytes, at: skippingSpace(bytes, from: timeEnd))
        else { return nil }
        return start..<end
    }

    private static let opening = Array("<metadata>".utf8)
    private static let closing = Array("</metadata>".utf8)
    private static let time = Array("<time>".utf8)
    private static let timeClosing = Array("</time>".utf8)

    /// Whether the only markup before `end` is the XML declaration and the `<gpx>` start tag,
    /// followed by white space: then the element is the root's first child, not text of a
    /// comment, a CDATA section or a processing instruction.
    private static func markupBefore(_ end: Int, in bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        var tags: [Int] = []
        for index in bytes.startIndex..<end where bytes[index] == UInt8(ascii: "<") { tags.append(index) }
        guard tags.count == 2, startsWith(Array("<?xml ".utf8), in: bytes, at: tags[0]),
            startsWith(Array("<gpx ".utf8), in: bytes, at: tags[1])
        else { return false }
        var last = end - 1
        while last > tags[1], isSpace(bytes[last]) { last -= 1 }
        return bytes[last] == UInt8(ascii: ">")
    }

    /// `2000-01-01T00:00:00Z`, with fractions of a second or an offset (`+01:00`) as ISO 8601
    /// allows: digits where digits go, never two signs together.
    private static func isISO8601(_ bytes: Slice<UnsafeRawBufferPointer>, _ range: Range<Int>) -> Bool {
        let shape = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard range.count >= shape.count + 1, range.count <= 40 else { return false }
        for (offset, expected) in shape.enumerated() {
            let byte = bytes[range.lowerBound + offset]
            guard expected == UInt8(ascii: "d") ? isDigit(byte) : byte == expected else { return false }
        }
        var rest = Array(bytes[(range.lowerBound + shape.count)..<range.upperBound])
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: isDigit)
            guard !digits.isEmpty else { return false }
            rest = Array(rest.dropFirst(1 + digits.count))
        }
        if rest == [UInt8(ascii: "Z")] { return true }
        let offset = Array("+dd:dd".utf8)
        guard rest.count == offset.count, rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-") else {
            return false
        }
        return zip(rest.dropFirst(), offset.dropFirst()).allSatisfy { byte, expected in
            expected == UInt8(ascii: "d") ? isDigit(byte) : byte == expected
        }
    }

    private static func firstIndex(of needle: [UInt8], in bytes: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in bytes.startIndex...(bytes.endIndex - needle.count)
        where bytes[index] == needle[0] && startsWith(needle, in: bytes, at: index) {
            return index
        }
        return nil
    }

    private static func startsWith(_ needle: [UInt8], in bytes: Slice<UnsafeRawBufferPointer>, at index: Int) -> Bool {
        guard index + needle.count <= bytes.endIndex else { return false }
        for offset in needle.indices where bytes[index + offset] != needle[offset] { return false }
        return true
    }

    /// The index after `needle` when it starts at `index`.
    private static func expect(_ needle: [UInt8], in bytes: Slice<UnsafeRawBufferPointer>, at index: Int) -> Int? {
        startsWith(needle, in: bytes, at: index) ? index + needle.count : nil
    }

    private static func skippingSpace(_ bytes: Slice<UnsafeRawBufferPointer>, from index: Int) -> Int {
        var cursor = index
        while cursor < bytes.endIndex, isSpace(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    private static func isTimeByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "T") || byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "+")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}

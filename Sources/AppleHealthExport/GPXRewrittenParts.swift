/// The parts of a route's GPX that every export writes anew. Apple writes each route with the
/// export's own time near its start (`<metadata>`, then `<time>2000-01-01T00:00:00Z</time>`) and the
/// track's name (`<name>Route 2000-01-01 8:00am</name>`, a local time in the zone of the phone
/// that exported it): the only bytes of an unchanged route that may differ from one export to
/// the next. Setting them aside lets a route's bytes name it across exports, so that a re-check
/// need not read its track again.
///
/// Only Apple's shape is set aside: the XML declaration and the `<gpx>` start tag before it,
/// nothing but white space between the elements, a time as ISO 8601 writes it, a name of plain
/// text. Two files alike but for such parts read as the same track, because the reader reads
/// points only; a file of any other shape keeps every byte.
public enum GPXRewrittenParts {
    /// How far into a file the parts are looked for: Apple's end at about 380 bytes.
    public static let searchedBytes = 1_024
    /// The longest name set aside.
    static let maximumNameBytes = 256

    /// The byte ranges of `head` (a file's first bytes) that hold the export's time and the track's
    /// name, in order: none when the file does not start in Apple's shape, the time alone when
    /// the name is not plain text.
    public static func spans(in head: UnsafeRawBufferPointer) -> [Range<Int>] {
        let bytes = head.prefix(searchedBytes)
        guard let time = timeSpan(in: bytes) else { return [] }
        guard let name = nameSpan(in: bytes, after: time.upperBound) else { return [time] }
        return [time, name]
    }

    /// The `<metadata>` element with the export's time, when it is the root's first child.
    private static func timeSpan(in bytes: Slice<UnsafeRawBufferPointer>) -> Range<Int>? {
        guard let start = firstIndex(of: opening, in: bytes), markupBefore(start, in: bytes) else { return nil }
        var cursor = skippingSpace(bytes, from: start + opening.count)
        guard let timeStart = expect(time, in: bytes, at: cursor) else { return nil }
        cursor = timeStart
        while cursor < bytes.endIndex, isTimeByte(bytes[cursor]) { cursor += 1 }
        guard isISO8601(bytes, timeStart..<cursor), let timeEnd = expect(timeClosing, in: bytes, at: cursor),
            let end = expect(closing, in: bytes, at: skippingSpace(bytes, from: timeEnd))
        else { return nil }
        return start..<end
    }

    /// The track's `<name>` right after `<trk>`, which follows the time, when it is plain text (no
    /// markup, no references).
    private static func nameSpan(in bytes: Slice<UnsafeRawBufferPointer>, after index: Int) -> Range<Int>? {
        guard let inside = expect(track, in: bytes, at: skippingSpace(bytes, from: index)) else { return nil }
        let start = skippingSpace(bytes, from: inside)
        guard let textStart = expect(name, in: bytes, at: start) else { return nil }
        var cursor = textStart
        while cursor < bytes.endIndex, bytes[cursor] != UInt8(ascii: "<"), bytes[cursor] != UInt8(ascii: "&") {
            cursor += 1
        }
        guard cursor - textStart <= maximumNameBytes, isPlainText(bytes[textStart..<cursor]),
            let end = expect(nameClosing, in: bytes, at: cursor)
        else { return nil }
        return start..<end
    }

    private static let opening = Array("<metadata>".utf8)
    private static let closing = Array("</metadata>".utf8)
    private static let time = Array("<time>".utf8)
    private static let timeClosing = Array("</time>".utf8)
    private static let track = Array("<trk>".utf8)
    private static let name = Array("<name>".utf8)
    private static let nameClosing = Array("</name>".utf8)

    private static let declaration = Array("<?xml ".utf8)
    private static let root = Array("<gpx ".utf8)
    /// How ISO 8601 writes a time to the second and an offset: `d` a digit, any other byte itself.
    private static let dateTime = Array("dddd-dd-ddTdd:dd:dd".utf8)
    private static let zoneOffset = Array("dd:dd".utf8)

    /// Whether the only markup before `end` is the XML declaration and the `<gpx>` start tag,
    /// followed by white space: then the element is the root's first child, not text of a
    /// comment, a CDATA section or a processing instruction.
    private static func markupBefore(_ end: Int, in bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        var tags = 0
        var rootStart = -1
        for index in bytes.startIndex..<end where bytes[index] == UInt8(ascii: "<") {
            tags += 1
            if tags == 1, !startsWith(declaration, in: bytes, at: index) { return false }
            if tags == 2 { rootStart = index }
        }
        guard tags == 2, startsWith(root, in: bytes, at: rootStart) else { return false }
        var last = end - 1
        while last > rootStart, isSpace(bytes[last]) { last -= 1 }
        return bytes[last] == UInt8(ascii: ">")
    }

    /// `2000-01-01T00:00:00Z`, with fractions of a second or an offset (`+01:00`) as ISO 8601
    /// allows: digits where digits go, never two signs together.
    private static func isISO8601(_ bytes: Slice<UnsafeRawBufferPointer>, _ range: Range<Int>) -> Bool {
        guard range.count <= 40, fits(dateTime, in: bytes, at: range.lowerBound, before: range.upperBound) else {
            return false
        }
        var cursor = range.lowerBound + dateTime.count
        if cursor < range.upperBound, bytes[cursor] == UInt8(ascii: ".") {
            let fraction = cursor + 1
            cursor = fraction
            while cursor < range.upperBound, isDigit(bytes[cursor]) { cursor += 1 }
            guard cursor > fraction else { return false }
        }
        guard cursor < range.upperBound else { return false }
        if bytes[cursor] == UInt8(ascii: "Z") { return cursor + 1 == range.upperBound }
        guard bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") else { return false }
        return cursor + 1 + zoneOffset.count == range.upperBound
            && fits(zoneOffset, in: bytes, at: cursor + 1, before: range.upperBound)
    }

    /// Whether `shape` (`d` a digit, any other byte itself) lies at `index`, ending before `end`.
    private static func fits(_ shape: [UInt8], in bytes: Slice<UnsafeRawBufferPointer>, at index: Int, before end: Int)
        -> Bool
    {
        guard index + shape.count <= end else { return false }
        for (offset, expected) in shape.enumerated() {
            let byte = bytes[index + offset]
            guard expected == UInt8(ascii: "d") ? isDigit(byte) : byte == expected else { return false }
        }
        return true
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

    /// UTF-8 without control characters but white space: text XML reads as it is.
    private static func isPlainText(_ text: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard String(validating: text, as: UTF8.self) != nil else { return false }
        return text.allSatisfy { $0 >= 0x20 || isSpace($0) }
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

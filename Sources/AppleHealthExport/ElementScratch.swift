import Foundation

/// The bytes of one top-level element and its descendants, collected from SAX callbacks into one
/// reusable arena so that nothing is converted to `String` until the mapper keeps it.
struct ElementScratch {
    struct Node {
        var name: Range<Int>
        var attributes: Range<Int>
        var parent: Int
        var depth: Int
        var text: Range<Int>
    }

    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
    }

    private(set) var bytes: [UInt8] = []
    private(set) var nodes: [Node] = []
    private(set) var attributes: [Attribute] = []
    private var openNodes: [Int] = []

    init() {
        self.init(reservingCapacity: true)
    }

    private init(reservingCapacity: Bool) {
        guard reservingCapacity else { return }
        bytes.reserveCapacity(1 << 16)
        nodes.reserveCapacity(64)
        attributes.reserveCapacity(256)
    }

    /// An empty scratch that allocates nothing, to stand in while the real one is lent out.
    static var placeholder: ElementScratch { ElementScratch(reservingCapacity: false) }

    var isEmpty: Bool { nodes.isEmpty }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        openNodes.removeAll(keepingCapacity: true)
    }

    /// Opens an element; its attributes follow through ``addAttribute(name:value:)``.
    mutating func open(name: UnsafeRawBufferPointer) {
        let nameRange = append(name)
        let parent = openNodes.last ?? -1
        nodes.append(
            Node(
                name: nameRange, attributes: attributes.count..<attributes.count, parent: parent,
                depth: openNodes.count, text: 0..<0))
        openNodes.append(nodes.count - 1)
    }

    /// Adds an attribute to the element opened last.
    mutating func addAttribute(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        attributes.append(Attribute(name: append(name), value: appendDecodingAmpersands(value)))
        let last = nodes.count - 1
        nodes[last].attributes = nodes[last].attributes.lowerBound..<attributes.count
    }

    mutating func close() {
        _ = openNodes.popLast()
    }

    /// Appends character data to the innermost open element, ignoring indentation.
    mutating func appendText(_ text: UnsafeRawBufferPointer) {
        guard let current = openNodes.last else { return }
        let existing = nodes[current].text
        if existing.isEmpty && text.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
        if existing.isEmpty || existing.upperBound == bytes.count {
            let range = append(text)
            nodes[current].text = (existing.isEmpty ? range.lowerBound : existing.lowerBound)..<range.upperBound
        } else {
            let start = bytes.count
            bytes.append(contentsOf: bytes[existing])
            bytes.append(contentsOf: text)
            nodes[current].text = start..<bytes.count
        }
    }

    private mutating func append(_ span: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: span)
        return start..<bytes.count
    }

    /// libxml2's SAX2 hands `&amp;` inside attribute values through as `&#38;`: decode it.
    private mutating func appendDecodingAmpersands(_ span: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        guard let base = span.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), span.count) != nil else {
            bytes.append(contentsOf: span)
            return start..<bytes.count
        }
        var index = 0
        let reference: [UInt8] = Array("&#38;".utf8)
        while index < span.count {
            if span[index] == UInt8(ascii: "&"), index + 5 <= span.count,
                (0..<5).allSatisfy({ span[index + $0] == reference[$0] })
            {
                bytes.append(UInt8(ascii: "&"))
                index += 5
            } else {
                bytes.append(span[index])
                index += 1
            }
        }
        return start..<bytes.count
    }
}

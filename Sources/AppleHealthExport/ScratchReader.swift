import Foundation

/// Read access to a collected element: names, attributes and children by index, converting
/// bytes to `String` only on request.
///
/// It reads the scratch in place, through a pointer valid only while the scratch is lent
/// (``ElementMapper/map(_:)``): holding a copy would retain and release each of its buffers for
/// every element of an export.
struct ScratchReader {
    private let lent: UnsafePointer<ElementScratch>
    let interner: StringInterner

    init(lending scratch: UnsafePointer<ElementScratch>, interner: StringInterner) {
        lent = scratch
        self.interner = interner
    }

    var scratch: ElementScratch {
        unsafeAddress { lent }
    }

    var root: Int { 0 }

    func name(_ node: Int) -> String {
        string(scratch.nodes[node].name)
    }

    func nameEquals(_ node: Int, _ literal: StaticString) -> Bool {
        bytesEqual(scratch.nodes[node].name, literal)
    }

    /// The direct children of `node`, in document order.
    func children(of node: Int) -> [Int] {
        guard node + 1 < scratch.nodes.count else { return [] }
        var result: [Int] = []
        let depth = scratch.nodes[node].depth
        var index = node + 1
        while index < scratch.nodes.count, scratch.nodes[index].depth > depth {
            if scratch.nodes[index].parent == node { result.append(index) }
            index += 1
        }
        return result
    }

    func attributeIndex(_ node: Int, _ name: StaticString) -> Int? {
        for index in scratch.nodes[node].attributes where bytesEqual(scratch.attributes[index].name, name) {
            return index
        }
        return nil
    }

    func attribute(_ node: Int, _ name: StaticString) -> String? {
        attributeIndex(node, name).map { string(scratch.attributes[$0].value) }
    }

    /// An attribute whose values repeat across records (types, sources, units): shared.
    func sharedAttribute(_ node: Int, _ name: StaticString) -> String? {
        attributeIndex(node, name).map { sharedString(scratch.attributes[$0].value) }
    }

    func sharedString(_ range: Range<Int>) -> String {
        scratch.bytes.withUnsafeBytes { interner.string(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The raw bytes of an attribute value, for parsing without a `String`.
    func attributeRange(_ node: Int, _ name: StaticString) -> Range<Int>? {
        attributeIndex(node, name).map { scratch.attributes[$0].value }
    }

    func timestamp(_ node: Int, _ name: StaticString) -> TimestampField {
        guard let index = attributeIndex(node, name) else { return .absent }
        let parsed = scratch.bytes.withUnsafeBytes { bytes in
            AppleExportTimestamp.parse(UnsafeRawBufferPointer(rebasing: bytes[scratch.attributes[index].value]))
        }
        return parsed.map(TimestampField.present) ?? .unreadable(name.description)
    }

    /// Every attribute of `node` whose name is not in `known`, as written.
    func otherAttributes(_ node: Int, excluding known: [StaticString]) -> [AppleExportAttribute] {
        var result: [AppleExportAttribute] = []
        for index in scratch.nodes[node].attributes {
            let nameRange = scratch.attributes[index].name
            if known.contains(where: { bytesEqual(nameRange, $0) }) { continue }
            result.append(exportAttribute(index))
        }
        return result
    }

    func allAttributes(_ node: Int) -> [AppleExportAttribute] {
        scratch.nodes[node].attributes.map(exportAttribute)
    }

    func text(_ node: Int) -> String? {
        let range = scratch.nodes[node].text
        return range.isEmpty ? nil : string(range)
    }

    func generic(_ node: Int) -> GenericElement {
        GenericElement(
            name: name(node), attributes: allAttributes(node), children: children(of: node).map(generic),
            text: text(node))
    }

    private func exportAttribute(_ index: Int) -> AppleExportAttribute {
        let attribute = scratch.attributes[index]
        let value = string(attribute.value)
        return AppleExportAttribute(
            name: string(attribute.name), value: value, timestamp: timestampIfShaped(attribute.value))
    }

    func timestampIfShaped(_ range: Range<Int>) -> AppleExportTimestamp? {
        guard range.count == 25 else { return nil }
        return scratch.bytes.withUnsafeBytes { AppleExportTimestamp.parse(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    func string(_ range: Range<Int>) -> String {
        scratch.bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
        }
    }

    func bytesEqual(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        guard !range.isEmpty else { return true }
        return scratch.bytes.withUnsafeBufferPointer { bytes in
            memcmp(bytes.baseAddress! + range.lowerBound, literal.utf8Start, range.count) == 0
        }
    }

    enum TimestampField {
        case absent
        case present(AppleExportTimestamp)
        case unreadable(String)

        var value: AppleExportTimestamp? {
            if case .present(let timestamp) = self { return timestamp }
            return nil
        }
    }
}

/// A `Record` element of the shape nearly every record of an export has, read in place: its
/// attributes as the bytes the reader holds, its dates parsed. Nothing is copied into a `String`.
///
/// Only what ``HealthRecordElement`` would model is here, and only records it models whole come
/// this way: no attribute but the nine it reads, no child but `MetadataEntry`, every date
/// readable. Any other record arrives as an element. The bytes are valid UTF-8 (libxml2 checks
/// every character, and the reader's filter replaced what was not) and live only during the
/// call that lends the record: copy what is kept.
public struct RecordElementSpans: ~Copyable {
    public let type: UnsafeRawBufferPointer
    public let sourceName: UnsafeRawBufferPointer
    public let sourceVersion: UnsafeRawBufferPointer?
    /// The device description without its address, as ``DeviceDescription/canonicalText`` has it.
    public let device: UnsafeRawBufferPointer?
    public let unit: UnsafeRawBufferPointer?
    public let value: UnsafeRawBufferPointer?
    public let creationDate: AppleExportTimestamp?
    public let startDate: AppleExportTimestamp
    public let endDate: AppleExportTimestamp
    /// The `MetadataEntry` children that have a key, in document order.
    public let metadata: UnsafeBufferPointer<MetadataSpans>
}

/// A `MetadataEntry` read in place (``RecordElementSpans``); as ``MetadataEntry`` has it, a value
/// that is absent is empty.
public struct MetadataSpans {
    public let key: UnsafeRawBufferPointer
    public let value: UnsafeRawBufferPointer
    /// Set when the value is an export timestamp.
    public let timestamp: AppleExportTimestamp?
}

extension ElementMapper {
    /// Lends `scratch` to `body` as ``RecordElementSpans`` when it is a record of their shape;
    /// false, without calling `body`, when it is anything else (then it is mapped).
    func lendInPlace(
        _ scratch: borrowing ElementScratch, to body: (borrowing RecordElementSpans) throws -> Void
    ) throws -> Bool {
        try withUnsafePointer(to: scratch) { lent in
            let reader = ScratchReader(lending: lent, interner: interner)
            guard reader.nameEquals(reader.root, "Record") else { return false }
            return try reader.scratch.bytes.withUnsafeBytes { bytes in
                guard let fields = RecordAttributes(reader, bytes), collectMetadata(reader, bytes) else { return false }
                return try metadataSpans.withUnsafeBufferPointer { metadata in
                    try body(fields.spans(metadata: metadata))
                    return true
                }
            }
        }
    }

    /// Fills ``metadataSpans`` with the root's `MetadataEntry` children; false when the root has a
    /// child of any other name.
    private func collectMetadata(_ reader: ScratchReader, _ bytes: UnsafeRawBufferPointer) -> Bool {
        metadataSpans.removeAll(keepingCapacity: true)
        let absent = UnsafeRawBufferPointer(start: bytes.baseAddress, count: 0)
        let nodes = reader.scratch.nodes
        for index in nodes.indices.dropFirst() where nodes[index].parent == reader.root {
            guard reader.nameEquals(index, "MetadataEntry") else { return false }
            guard let key = reader.attributeRange(index, "key") else { continue }
            let value = reader.attributeRange(index, "value")
            metadataSpans.append(
                MetadataSpans(
                    key: UnsafeRawBufferPointer(rebasing: bytes[key]),
                    value: value.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) } ?? absent,
                    timestamp: value.flatMap(reader.timestampIfShaped)))
        }
        return true
    }
}

/// The root's attributes sorted into the nine a record models; nil when it has another, lacks a
/// type or source, or a date does not read.
private struct RecordAttributes {
    var type: Range<Int>?
    var sourceName: Range<Int>?
    var sourceVersion: Range<Int>?
    var device: Range<Int>?
    var unit: Range<Int>?
    var value: Range<Int>?
    var creationDate: AppleExportTimestamp?
    var startDate: AppleExportTimestamp?
    var endDate: AppleExportTimestamp?
    let bytes: UnsafeRawBufferPointer

    init?(_ reader: ScratchReader, _ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        for index in reader.scratch.nodes[reader.root].attributes {
            let attribute = reader.scratch.attributes[index]
            guard sort(attribute.name, attribute.value, reader) else { return nil }
        }
        guard type != nil, sourceName != nil, startDate != nil, endDate != nil else { return nil }
    }

    /// Files one attribute; false when it is not one a record models, or its date does not read.
    private mutating func sort(_ name: Range<Int>, _ value: Range<Int>, _ reader: ScratchReader) -> Bool {
        func date() -> AppleExportTimestamp? {
            AppleExportTimestamp.parse(UnsafeRawBufferPointer(rebasing: bytes[value]))
        }
        switch name.count {
        case 4 where reader.bytesEqual(name, "type"): type = value
        case 4 where reader.bytesEqual(name, "unit"): unit = value
        case 5 where reader.bytesEqual(name, "value"): self.value = value
        case 6 where reader.bytesEqual(name, "device"):
            device = DeviceDescription.bodyRange(bytes, value) ?? value
        case 7 where reader.bytesEqual(name, "endDate"):
            endDate = date()
            return endDate != nil
        case 9 where reader.bytesEqual(name, "startDate"):
            startDate = date()
            return startDate != nil
        case 10 where reader.bytesEqual(name, "sourceName"): sourceName = value
        case 12 where reader.bytesEqual(name, "creationDate"):
            creationDate = date()
            return creationDate != nil
        case 13 where reader.bytesEqual(name, "sourceVersion"): sourceVersion = value
        default: return false
        }
        return true
    }

    func spans(metadata: UnsafeBufferPointer<MetadataSpans>) -> RecordElementSpans {
        func span(_ range: Range<Int>?) -> UnsafeRawBufferPointer? {
            range.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
        }
        return RecordElementSpans(
            type: span(type)!, sourceName: span(sourceName)!, sourceVersion: span(sourceVersion), device: span(device),
            unit: span(unit), value: span(value), creationDate: creationDate, startDate: startDate!, endDate: endDate!,
            metadata: metadata)
    }
}

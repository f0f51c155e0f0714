import AppleHealthExport

extension CanonicalJSON {
    /// ``writeMetadata(_:to:)`` of metadata read in place, byte for byte the same text. One entry,
    /// as most records have, is written from its bytes; several go through the entries' strings,
    /// sorted as `String` sorts them.
    static func writeMetadata(_ entries: UnsafeBufferPointer<MetadataSpans>, to output: inout [UInt8]) {
        guard let entry = entries.first else { return }
        guard entries.count == 1 else { return writeMetadata(entries.map(MetadataEntry.init), to: &output) }
        output.append(contentsOf: "[[".utf8)
        writeString(bytes: entry.key, to: &output)
        output.append(UInt8(ascii: ","))
        if let timestamp = entry.timestamp {
            writeInstant(timestamp, to: &output)
        } else {
            writeString(bytes: entry.value, to: &output)
        }
        output.append(contentsOf: "]]".utf8)
    }

    /// ``writeMetadataAsWritten(_:to:)`` of metadata read in place; nothing when no value is a date.
    static func writeMetadataAsWritten(_ entries: UnsafeBufferPointer<MetadataSpans>, to output: inout [UInt8]) {
        guard entries.contains(where: { $0.timestamp != nil }) else { return }
        guard entries.count == 1, let entry = entries.first else {
            return writeMetadataAsWritten(entries.map(MetadataEntry.init), to: &output)
        }
        output.append(contentsOf: "[[".utf8)
        writeString(bytes: entry.key, to: &output)
        output.append(UInt8(ascii: ","))
        writeString(bytes: entry.value, to: &output)
        output.append(contentsOf: "]]".utf8)
    }
}

extension MetadataEntry {
    /// The entry a record's element would hold for one read in place.
    init(_ spans: MetadataSpans) {
        self.init(
            key: String(decoding: spans.key, as: UTF8.self), value: String(decoding: spans.value, as: UTF8.self),
            timestamp: spans.timestamp)
    }
}

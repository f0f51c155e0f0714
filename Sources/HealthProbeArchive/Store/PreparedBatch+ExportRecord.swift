import AppleHealthExport

extension PreparedBatch {
    /// Adds a `Record` element of an export as the same row as
    /// `append(HealthRecord(exportElement: .record(element)))` gives, its text written from the
    /// element straight into ``bytes``, without the intermediate record: no copies of its strings,
    /// and its metadata never a `String` of its own. Its fingerprints wait for
    /// ``fingerprintNextRow(with:)``.
    mutating func append(exportRecord element: borrowing HealthRecordElement) {
        let metadata = element.sample.metadata
        let text = RecordText(
            kind: append(HealthRecord.Kind.record.rawValue), type: append(element.sample.type),
            sourceName: append(element.sample.sourceName), sourceVersion: append(element.sample.sourceVersion),
            device: append(element.sample.device?.canonicalText), unit: append(element.unit),
            value: append(element.value), metadata: appendWritten { CanonicalJSON.writeMetadata(metadata, to: &$0) },
            details: append(HealthRecord.detailsText(HealthRecord.beatDetails(element), sample: element.sample)),
            healthKitUUID: .null,
            metadataAsWritten: appendWritten { CanonicalJSON.writeMetadataAsWritten(metadata, to: &$0) })
        let numbers = Numbers(
            numericValue: HealthRecord.number(element.value),
            creationDate: element.sample.creationDate.map { Double($0.secondsSince1970) },
            startDate: Double(element.sample.startDate.secondsSince1970),
            endDate: Double(element.sample.endDate.secondsSince1970),
            enteredByHand: metadata.contains { $0.key == "HKWasUserEntered" && $0.value == "1" })
        appendRow(text: text, numbers: numbers)
    }

    /// Adds a `Record` read in place as the same row as the element would give
    /// (``append(exportRecord:)``), its bytes copied once, into ``bytes``. A record of this shape
    /// has nothing for `details`. Its fingerprints wait for ``fingerprintNextRow(with:)``.
    mutating func append(recordInPlace record: borrowing RecordElementSpans) {
        let metadata = record.metadata
        let text = RecordText(
            kind: append(HealthRecord.Kind.record.rawValue), type: append(copying: record.type),
            sourceName: append(copying: record.sourceName), sourceVersion: append(copying: record.sourceVersion),
            device: append(copying: record.device), unit: append(copying: record.unit),
            value: append(copying: record.value),
            metadata: appendWritten { CanonicalJSON.writeMetadata(metadata, to: &$0) }, details: .null,
            healthKitUUID: .null,
            metadataAsWritten: appendWritten { CanonicalJSON.writeMetadataAsWritten(metadata, to: &$0) })
        let numbers = Numbers(
            numericValue: record.value.flatMap(HealthRecord.number),
            creationDate: record.creationDate.map { Double($0.secondsSince1970) },
            startDate: Double(record.startDate.secondsSince1970), endDate: Double(record.endDate.secondsSince1970),
            enteredByHand: metadata.contains {
                $0.key.elementsEqual("HKWasUserEntered".utf8) && $0.value.elementsEqual("1".utf8)
            })
        appendRow(text: text, numbers: numbers)
    }
}

extension HealthRecord {
    /// ``number(_:)`` of a value's bytes: the same text, read by the same parser.
    static func number(_ value: UnsafeRawBufferPointer) -> Double? {
        number(String(decoding: value, as: UTF8.self))
    }
}

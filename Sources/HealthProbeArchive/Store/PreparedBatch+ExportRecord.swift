import AppleHealthExport

extension PreparedBatch {
    /// Adds a `Record` element of an export — nearly every element of one — as the same row with
    /// the same fingerprints as `append(HealthRecord(exportElement: .record(element)))`, its text
    /// written from the element straight into ``bytes``, without the intermediate record: no
    /// copies of its strings, and its metadata never a `String` of its own.
    mutating func append(
        exportRecord element: borrowing HealthRecordElement, fingerprintedBy maker: inout RecordFingerprints.Maker
    ) -> (fingerprints: RecordFingerprints, numbers: Numbers) {
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
        return (appendRow(text: text, numbers: numbers, fingerprintedBy: &maker), numbers)
    }
}

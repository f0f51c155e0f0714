import Foundation

/// Turns a collected top-level element into a typed ``AppleExportElement``.
///
/// A well-formed element whose content cannot be read (an impossible date, a missing required
/// attribute) becomes ``AppleExportElement/unreadable(_:)`` with the reason: kept, never dropped.
final class ElementMapper {
    struct Unreadable: Error {
        var reason: String
    }

    /// Parsed devices by their text without the address: a few devices write millions of records.
    private var devices: [String: DeviceDescription] = [:]
    /// The last devices seen, most recent first, by the bytes of their text without the address:
    /// a type's records alternate between a phone and a watch.
    private var recentDevices: [(body: [UInt8], device: DeviceDescription)] = []
    let interner = StringInterner()
    /// The metadata of the record lent in place last (``lendInPlace(_:to:)``), its storage kept.
    var metadataSpans: [MetadataSpans] = []

    /// The device of `node`, its address skipped on the bytes, parsed once per distinct device.
    func device(_ reader: ScratchReader, _ node: Int) -> DeviceDescription? {
        guard let range = reader.attributeRange(node, "device") else { return nil }
        return reader.scratch.bytes.withUnsafeBytes { bytes in
            guard let body = DeviceDescription.bodyRange(bytes, range) else {
                return DeviceDescription(exportText: reader.string(range))
            }
            let key = UnsafeRawBufferPointer(rebasing: bytes[body])
            if let recent = recentDevices.first(where: { $0.body.hasBytes(of: key) }) { return recent.device }
            let text = interner.string(key)
            let parsed = devices[text] ?? DeviceDescription(body: text)
            if devices.count < 4_096 { devices[text] = parsed }
            recentDevices.insert((Array(key), parsed), at: 0)
            if recentDevices.count > 4 { recentDevices.removeLast() }
            return parsed
        }
    }

    static let sampleAttributes: [StaticString] = [
        "type", "sourceName", "sourceVersion", "device", "creationDate", "startDate", "endDate",
    ]

    func map(_ scratch: borrowing ElementScratch) -> AppleExportElement {
        withUnsafePointer(to: scratch) { map(ScratchReader(lending: $0, interner: interner)) }
    }

    private func map(_ reader: ScratchReader) -> AppleExportElement {
        let root = reader.root
        do {
            if reader.nameEquals(root, "Record") { return .record(try record(reader, root)) }
            if reader.nameEquals(root, "Workout") { return .workout(try workout(reader, root)) }
            if reader.nameEquals(root, "Correlation") { return .correlation(try correlation(reader, root)) }
            if reader.nameEquals(root, "ActivitySummary") { return .activitySummary(try activitySummary(reader, root)) }
            if reader.nameEquals(root, "ClinicalRecord") { return .clinicalRecord(try clinicalRecord(reader, root)) }
            if reader.nameEquals(root, "Audiogram") { return .audiogram(try audiogram(reader, root)) }
            if reader.nameEquals(root, "VisionPrescription") {
                return .visionPrescription(try visionPrescription(reader, root))
            }
            return .unknown(reader.generic(root))
        } catch {
            return .unreadable(UnreadableElement(raw: reader.generic(root), reason: error.reason))
        }
    }

    // MARK: Shared pieces

    /// Attributes a `Record` models, and its modelled children (lists built once, not per record).
    static let recordAttributes: [StaticString] = sampleAttributes + ["unit", "value"]
    static let recordChildren: [StaticString] = ["MetadataEntry", "HeartRateVariabilityMetadataList"]

    func sampleFields(
        _ reader: ScratchReader, _ node: Int, type explicitType: String? = nil,
        knownAttributes: [StaticString] = sampleAttributes, knownChildren: [StaticString] = ["MetadataEntry"]
    ) throws(Unreadable) -> SampleFields {
        guard let type = explicitType ?? reader.sharedAttribute(node, "type") else {
            throw Unreadable(reason: "no type attribute")
        }
        guard let sourceName = reader.sharedAttribute(node, "sourceName") else {
            throw Unreadable(reason: "no sourceName attribute")
        }
        let start = try requiredTimestamp(reader, node, "startDate")
        let end = try requiredTimestamp(reader, node, "endDate")
        let creation = try optionalTimestamp(reader, node, "creationDate")
        let children = reader.children(of: node)
        return SampleFields(
            type: type, sourceName: sourceName, sourceVersion: reader.sharedAttribute(node, "sourceVersion"),
            device: device(reader, node),
            creationDate: creation, startDate: start, endDate: end,
            metadata: metadata(reader, children),
            otherAttributes: reader.otherAttributes(node, excluding: knownAttributes),
            otherChildren: children.isEmpty
                ? []
                : children.filter { child in !knownChildren.contains(where: { reader.nameEquals(child, $0) }) }
                    .map(reader.generic))
    }

    func metadata(_ reader: ScratchReader, _ children: [Int]) -> [MetadataEntry] {
        var entries: [MetadataEntry] = []
        for child in children where reader.nameEquals(child, "MetadataEntry") {
            guard let keyIndex = reader.attributeIndex(child, "key") else { continue }
            let valueRange = reader.attributeIndex(child, "value").map { reader.scratch.attributes[$0].value }
            entries.append(
                MetadataEntry(
                    key: reader.sharedString(reader.scratch.attributes[keyIndex].value),
                    value: valueRange.map(reader.string) ?? "",
                    timestamp: valueRange.flatMap(reader.timestampIfShaped)))
        }
        return entries
    }

    func requiredTimestamp(_ reader: ScratchReader, _ node: Int, _ name: StaticString) throws(Unreadable)
        -> AppleExportTimestamp
    {
        switch reader.timestamp(node, name) {
        case .present(let timestamp): return timestamp
        case .absent: throw Unreadable(reason: "no \(name) attribute")
        case .unreadable: throw Unreadable(reason: "unreadable \(name)")
        }
    }

    func optionalTimestamp(_ reader: ScratchReader, _ node: Int, _ name: StaticString) throws(Unreadable)
        -> AppleExportTimestamp?
    {
        switch reader.timestamp(node, name) {
        case .present(let timestamp): return timestamp
        case .absent: return nil
        case .unreadable: throw Unreadable(reason: "unreadable \(name)")
        }
    }

    // MARK: Kinds

    func record(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> HealthRecordElement {
        let sample = try sampleFields(
            reader, node, knownAttributes: Self.recordAttributes, knownChildren: Self.recordChildren)
        var beats: [InstantaneousBeat] = []
        for list in reader.children(of: node) where reader.nameEquals(list, "HeartRateVariabilityMetadataList") {
            for beat in reader.children(of: list) where reader.nameEquals(beat, "InstantaneousBeatsPerMinute") {
                let timeText = reader.attribute(beat, "time") ?? ""
                beats.append(
                    InstantaneousBeat(
                        bpm: reader.attribute(beat, "bpm") ?? "", timeText: timeText,
                        secondsSince1970: TimeOfDay.resolve(timeText, onDayOf: sample.startDate)))
            }
        }
        return HealthRecordElement(
            sample: sample, unit: reader.sharedAttribute(node, "unit"), value: reader.attribute(node, "value"),
            beats: beats)
    }

    func correlation(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> CorrelationElement {
        let sample = try sampleFields(reader, node, knownChildren: ["MetadataEntry", "Record"])
        var records: [HealthRecordElement] = []
        for child in reader.children(of: node) where reader.nameEquals(child, "Record") {
            records.append(try record(reader, child))
        }
        return CorrelationElement(sample: sample, records: records)
    }

    func activitySummary(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> ActivitySummaryElement {
        guard let day = reader.attribute(node, "dateComponents") else {
            throw Unreadable(reason: "no dateComponents attribute")
        }
        guard CalendarDay(text: day) != nil else { throw Unreadable(reason: "unreadable dateComponents") }
        return ActivitySummaryElement(
            dateComponents: day, attributes: reader.otherAttributes(node, excluding: ["dateComponents"]))
    }

    func clinicalRecord(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> ClinicalRecordElement {
        guard let type = reader.attribute(node, "type") else { throw Unreadable(reason: "no type attribute") }
        return ClinicalRecordElement(
            type: type, identifier: reader.attribute(node, "identifier"),
            sourceName: reader.attribute(node, "sourceName"),
            receivedDate: try optionalTimestamp(reader, node, "receivedDate"),
            attributes: reader.otherAttributes(node, excluding: ["type", "identifier", "sourceName", "receivedDate"]))
    }

    func audiogram(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> AudiogramElement {
        let sample = try sampleFields(
            reader, node, type: reader.attribute(node, "type") ?? "HKDataTypeIdentifierAudiogram",
            knownChildren: ["MetadataEntry", "SensitivityPoint"])
        let points = reader.children(of: node).filter { reader.nameEquals($0, "SensitivityPoint") }
            .map(reader.allAttributes)
        return AudiogramElement(sample: sample, sensitivityPoints: points)
    }

    func visionPrescription(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> VisionPrescriptionElement {
        VisionPrescriptionElement(
            type: reader.attribute(node, "type") ?? "HKVisionPrescriptionTypeIdentifier",
            dateIssued: try optionalTimestamp(reader, node, "dateIssued"),
            attributes: reader.otherAttributes(node, excluding: ["type", "dateIssued"]),
            children: reader.children(of: node).map(reader.generic))
    }
}

/// A calendar day written `yyyy-MM-dd` (activity summaries).
public struct CalendarDay: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysIn(month: month, year: year)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    public var daysSince1970: Int64 { CivilCalendar.daysSince1970(year: year, month: month, day: day) }
}

import AppleHealthExport
import Foundation
import HealthProbeArchive

/// One archived record's fields as the rebuild of an Apple export reads them: from a row of the
/// archive, or from a correlation's member as its details hold it.
struct StoredRecord {
    var kind: String
    var type: String
    var sourceName: String?
    var sourceVersion: String?
    /// The `device` attribute as Apple writes it (`<<HKDevice: 0x…>, name:…>`).
    var device: String? { deviceDescription.map(Self.deviceAttribute) }
    var deviceDescription: DeviceDescription?
    var unit: String?
    var value: String?
    var creationDate: Double?
    var startDate: Double?
    var endDate: Double?
    /// `[key, value]` pairs, values as stored.
    var metadata: [(String, String)]
    var details: CanonicalJSON?

    init(_ cursor: ArchivedRecordCursor, devices: [Int64: DeviceDescription]) {
        kind = cursor.string(.kind) ?? ""
        type = cursor.string(.type) ?? ""
        sourceName = cursor.string(.sourceName)
        sourceVersion = cursor.string(.sourceVersion)
        deviceDescription = cursor.integer(.deviceId).flatMap { devices[$0] }
        unit = cursor.string(.unit)
        value = cursor.string(.value)
        creationDate = cursor.double(.creationDate)
        startDate = cursor.double(.startDate)
        endDate = cursor.double(.endDate)
        metadata = cursor.text(.metadata).flatMap(CanonicalJSON.init(canonicalText:)).map(Self.pairs) ?? []
        details = cursor.text(.details).flatMap(CanonicalJSON.init(canonicalText:))
    }

    /// A correlation's member, as ``HealthRecord/recordDetails(_:)`` keeps it.
    init(member: CanonicalJSON) {
        let fields = member.strings
        kind = "record"
        type = fields["type"] ?? ""
        sourceName = fields["sourceName"]
        sourceVersion = fields["sourceVersion"]
        deviceDescription = fields["device"].map(DeviceDescription.init(canonicalText:))
        unit = fields["unit"]
        value = fields["value"]
        creationDate = fields["creationDate"].flatMap(UTCText.parseISO8601)
        startDate = fields["startDate"].flatMap(UTCText.parseISO8601)
        endDate = fields["endDate"].flatMap(UTCText.parseISO8601)
        metadata = fields["metadata"].flatMap(Self.parse).map(Self.pairs) ?? []
        details = fields["details"].flatMap(Self.parse)
    }

    /// The `device` attribute for a stored description. The per-record memory address Apple
    /// writes was never kept; every rebuilt device carries the same placeholder.
    static func deviceAttribute(_ device: DeviceDescription) -> String {
        device.isFreeText ? device.canonicalText : "<<HKDevice: 0x000000000>, \(device.canonicalText)>"
    }

    static func parse(_ text: String) -> CanonicalJSON? {
        var text = text
        return text.withUTF8 { CanonicalJSON(canonicalText: $0) }
    }

    /// Metadata pairs (`[["key","value"],…]`).
    static func pairs(_ json: CanonicalJSON) -> [(String, String)] {
        json.array.compactMap { pair in
            let parts = pair.array
            guard parts.count == 2, let key = parts[0].string, let value = parts[1].string else { return nil }
            return (key, value)
        }
    }
}

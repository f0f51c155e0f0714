import AppleHealthExport
import Foundation

/// One stored element — a sample, workout, correlation, activity summary, clinical record, … —
/// in the form both ways in (exports and HealthKit) share. Dates are UTC instants.
public struct HealthRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case record, correlation, workout, activitySummary, clinicalRecord, audiogram, visionPrescription
        /// An ECG recording (an export's `electrocardiograms/*.csv`), its voltages attached.
        case electrocardiogram
        /// An element kind HealthProbe does not know yet, kept generically.
        case other
        /// A well-formed element whose content could not be read, kept raw.
        case unreadable
    }

    public var kind: Kind
    /// The HealthKit identifier as written (`HKQuantityTypeIdentifierHeartRate`); workouts use
    /// `HKWorkoutTypeIdentifier`, activity summaries `HKActivitySummaryTypeIdentifier`.
    public var type: String
    public var sourceName: String?
    public var sourceVersion: String?
    /// Device fields without the per-record memory address (`name:…, model:…`).
    public var device: String?
    public var unit: String?
    /// The value exactly as read. Set only by the designated initialiser, with its number: an
    /// observer would not run in initialisers, and a record whose number disagreed with its
    /// value would fingerprint wrongly.
    public private(set) var value: String?
    /// The value as a number, when it is one.
    public private(set) var numericValue: Double?
    /// Seconds since 1970, UTC.
    public var creationDate: Double?
    public var startDate: Double?
    public var endDate: Double?
    /// `[[key, value], …]` as canonical JSON, sorted, timestamps in UTC; nil when empty. What
    /// fingerprints read: the same instant written with another offset is the same record.
    public var metadataJSON: String?
    /// The same pairs with dates as the export wrote them, offsets kept; nil when no value is a
    /// date (or on the live path, whose dates carry no offset). What exports give back.
    public var metadataAsWritten: String?
    /// Children and attributes not modelled above, as canonical JSON; nil when none.
    public var detailsJSON: String?
    /// The HealthKit UUID, on the live path only.
    public var healthKitUUID: String?
    /// The HealthKit UUID a backup's Health database gave the sample: how the next backup finds
    /// it again. Not part of any fingerprint: the same sample in an export is the same record.
    public var sampleUUID: UUID?
    /// For a correlation: the samples it holds, which also stand at top level in an export.
    public var members: [CorrelationMember] = []
    /// The export's files the record came in or refers to: an ECG's recording (its voltages'
    /// digest also in the details), a clinical record's document, a workout's routes.
    public var files: [AttachedFile] = []

    public init(
        kind: Kind, type: String, sourceName: String? = nil, sourceVersion: String? = nil, device: String? = nil,
        unit: String? = nil, value: String? = nil, creationDate: Double? = nil, startDate: Double? = nil,
        endDate: Double? = nil, metadataJSON: String? = nil, detailsJSON: String? = nil, healthKitUUID: String? = nil
    ) {
        self.kind = kind
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.value = value
        self.numericValue = Self.number(value)
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadataJSON = metadataJSON
        self.detailsJSON = detailsJSON
        self.healthKitUUID = healthKitUUID
    }

    /// Borrows an export element's fields and copies only what the record keeps.
    init(
        kind: Kind, sample: borrowing SampleFields, details: [(String, CanonicalJSON)] = [], unit: String? = nil,
        value: String? = nil
    ) {
        self.init(
            kind: kind, type: sample.type, sourceName: sample.sourceName, sourceVersion: sample.sourceVersion,
            device: sample.device?.canonicalText, unit: unit, value: value,
            creationDate: sample.creationDate.map { Double($0.secondsSince1970) },
            startDate: Double(sample.startDate.secondsSince1970), endDate: Double(sample.endDate.secondsSince1970),
            metadataJSON: CanonicalJSON.metadataText(sample.metadata),
            detailsJSON: Self.detailsText(details, sample: sample))
        metadataAsWritten = CanonicalJSON.metadataAsWrittenText(sample.metadata)
    }

    /// A sample's details as stored: `details`, then the attributes and children no field
    /// models; nil when there are none.
    static func detailsText(_ details: [(String, CanonicalJSON)], sample: borrowing SampleFields) -> String? {
        var pairs = details
        if !sample.otherAttributes.isEmpty {
            pairs.append(("otherAttributes", CanonicalJSON.attributes(sample.otherAttributes)))
        }
        if !sample.otherChildren.isEmpty {
            pairs.append(("otherChildren", .array(sample.otherChildren.map(CanonicalJSON.generic))))
        }
        return pairs.isEmpty ? nil : CanonicalJSON.object(pairs).text
    }

    /// A value as a number, when it is a finite one.
    static func number(_ value: String?) -> Double? {
        value.flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }
}

/// A sample a correlation holds, by its semantic fingerprint and index key.
public struct CorrelationMember: Sendable, Hashable {
    public var semantic: Fingerprint
    public var key: Int64

    public init(_ record: HealthRecord) {
        let fingerprints = RecordFingerprints(record)
        semantic = fingerprints.semantic
        key = fingerprints.semanticKey
    }
}

import Foundation

/// A HealthKit sample as the live path reads it: what `HKQuantitySample`, `HKCategorySample`,
/// `HKWorkout` and `HKCorrelation` hold, without HealthKit. Dates keep HealthKit's sub-second
/// precision (seconds since 1970, UTC).
public struct HealthSample: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case quantity, category, workout, correlation
        /// An ECG recording (`HKElectrocardiogram`), its voltages in ``HealthSample/electrocardiogram``.
        case electrocardiogram
    }

    /// An ECG recording as HealthKit gives it: its classification as the Health app names it,
    /// its rate and lead, and its voltages.
    public struct Electrocardiogram: Sendable, Hashable {
        /// `Sinus Rhythm`, `Atrial Fibrillation`, … (``HealthKitCatalog/electrocardiogramClassificationName(rawValue:)``).
        public var classification: String?
        /// Beats a minute, when HealthKit gives one.
        public var averageHeartRate: Double?
        /// Hertz.
        public var samplingFrequency: Double
        /// `Lead I`: the Watch's lead.
        public var lead: String
        /// Each measurement's voltage in µV, in order.
        public var microvolts: [Double]

        public init(
            classification: String?, averageHeartRate: Double?, samplingFrequency: Double, lead: String = "Lead I",
            microvolts: [Double]
        ) {
            self.classification = classification
            self.averageHeartRate = averageHeartRate
            self.samplingFrequency = samplingFrequency
            self.lead = lead
            self.microvolts = microvolts
        }
    }

    /// The device fields HealthKit gives (`HKDevice`); nil fields are left out.
    public struct Device: Sendable, Hashable {
        public var name: String?
        public var manufacturer: String?
        public var model: String?
        public var hardware: String?
        public var firmware: String?
        public var software: String?

        public init(
            name: String? = nil, manufacturer: String? = nil, model: String? = nil, hardware: String? = nil,
            firmware: String? = nil, software: String? = nil
        ) {
            self.name = name
            self.manufacturer = manufacturer
            self.model = model
            self.hardware = hardware
            self.firmware = firmware
            self.software = software
        }
    }

    public var uuid: UUID
    public var kind: Kind
    /// The HealthKit identifier (`HKQuantityTypeIdentifierHeartRate`; workouts use
    /// `HKWorkoutTypeIdentifier`).
    public var type: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: Device?
    /// A quantity's unit as HealthKit writes it (`count/min`).
    public var unit: String?
    /// A quantity's amount, or a category's raw value.
    public var value: Double?
    public var startDate: Double
    public var endDate: Double
    /// When the sample was saved, when known (`HKMetadataKeyCreationDate`-like; HealthKit does
    /// not expose it for every sample).
    public var creationDate: Double?
    public var metadata: [String: String]
    /// A workout's activity type (`HKWorkoutActivityTypeRunning`).
    public var workoutActivityType: String?
    /// A correlation's samples.
    public var members: [HealthSample]
    /// An ECG recording's header and voltages.
    public var electrocardiogram: Electrocardiogram?

    public init(
        uuid: UUID = UUID(), kind: Kind, type: String, sourceName: String, sourceVersion: String? = nil,
        device: Device? = nil, unit: String? = nil, value: Double? = nil, startDate: Double, endDate: Double,
        creationDate: Double? = nil, metadata: [String: String] = [:], workoutActivityType: String? = nil,
        members: [HealthSample] = []
    ) {
        self.uuid = uuid
        self.kind = kind
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.value = value
        self.startDate = startDate
        self.endDate = endDate
        self.creationDate = creationDate
        self.metadata = metadata
        self.workoutActivityType = workoutActivityType
        self.members = members
    }

    public var syncIdentifier: String? { metadata[HealthSample.syncIdentifierKey] }
    public var syncVersion: Int? { metadata[HealthSample.syncVersionKey].flatMap { Int($0) } }

    public static let syncIdentifierKey = "HKMetadataKeySyncIdentifier"
    public static let syncVersionKey = "HKMetadataKeySyncVersion"
}

/// An `HKDeletedObject`: the UUID of a deleted sample and, at most, its sync identifier and version.
public struct DeletedSample: Sendable, Hashable {
    public var uuid: UUID
    public var syncIdentifier: String?
    public var syncVersion: Int?

    public init(uuid: UUID, syncIdentifier: String? = nil, syncVersion: Int? = nil) {
        self.uuid = uuid
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
    }
}

/// An opaque position in a sample type's change history (`HKQueryAnchor`, archived).
public struct HealthAnchor: Sendable, Hashable {
    public var data: Data

    public init(data: Data) {
        self.data = data
    }
}

/// One page of an anchored query: what was added and deleted since the anchor, and the anchor
/// to ask from next. A page as long as the limit may be followed by more.
public struct ChangePage: Sendable {
    public var added: [HealthSample]
    public var deleted: [DeletedSample]
    public var anchor: HealthAnchor?
    /// Whether the page was cut at the limit: ask again from `anchor`.
    public var mayHaveMore: Bool

    public init(added: [HealthSample], deleted: [DeletedSample], anchor: HealthAnchor?, mayHaveMore: Bool) {
        self.added = added
        self.deleted = deleted
        self.anchor = anchor
        self.mayHaveMore = mayHaveMore
    }
}

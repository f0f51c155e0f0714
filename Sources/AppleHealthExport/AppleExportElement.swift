/// One top-level element of an Apple Health export, typed by kind.
///
/// `ExportDate` and `Me` are not elements here: the export date arrives in ``AppleExportSummary`` and
/// personal characteristics (`Me`) are never read.
public enum AppleExportElement: Sendable {
    case record(HealthRecordElement)
    case correlation(CorrelationElement)
    case workout(WorkoutElement)
    case activitySummary(ActivitySummaryElement)
    case clinicalRecord(ClinicalRecordElement)
    case audiogram(AudiogramElement)
    case visionPrescription(VisionPrescriptionElement)
    /// An ECG recording: a file of `electrocardiograms/`, not an element of the main XML.
    case electrocardiogram(ElectrocardiogramElement)
    /// A kind HealthProbe does not know yet, kept whole.
    case unknown(GenericElement)
    /// A well-formed element whose content could not be read (an impossible date, a missing
    /// required attribute): kept raw, never dropped.
    case unreadable(UnreadableElement)

    /// The sample type the element is filed under: the HealthKit identifier of a sample,
    /// `HKWorkoutTypeIdentifier`, `HKActivitySummaryTypeIdentifier`, else the element's name.
    public var sampleType: String {
        switch self {
        case .record(let record): record.sample.type
        case .correlation(let correlation): correlation.sample.type
        case .workout: "HKWorkoutTypeIdentifier"
        case .activitySummary: "HKActivitySummaryTypeIdentifier"
        case .clinicalRecord(let clinical): clinical.type
        case .audiogram(let audiogram): audiogram.sample.type
        case .visionPrescription(let prescription): prescription.type
        case .electrocardiogram: ElectrocardiogramElement.sampleType
        case .unknown, .unreadable: elementName
        }
    }

    /// The element's name as written in the export (`Record`, `Workout`, …).
    public var elementName: String {
        switch self {
        case .record: "Record"
        case .correlation: "Correlation"
        case .workout: "Workout"
        case .activitySummary: "ActivitySummary"
        case .clinicalRecord: "ClinicalRecord"
        case .audiogram: "Audiogram"
        case .visionPrescription: "VisionPrescription"
        case .electrocardiogram: "Electrocardiogram"
        case .unknown(let element): element.name
        case .unreadable(let element): element.raw.name
        }
    }
}

/// An attribute kept as written; `timestamp` is set when the text is an export timestamp, so that
/// consumers can compare instants rather than offset-dependent text.
public struct AppleExportAttribute: Sendable, Hashable {
    public var name: String
    public var value: String
    public var timestamp: AppleExportTimestamp?

    public init(name: String, value: String, timestamp: AppleExportTimestamp? = nil) {
        self.name = name
        self.value = value
        self.timestamp = timestamp
    }
}

/// A `MetadataEntry`. Keys repeat and may contain spaces; values often embed units (`"418 cm"`).
public struct MetadataEntry: Sendable, Hashable {
    public var key: String
    public var value: String
    /// Set when the value is an export timestamp (`Modified Date`).
    public var timestamp: AppleExportTimestamp?

    public init(key: String, value: String, timestamp: AppleExportTimestamp? = nil) {
        self.key = key
        self.value = value
        self.timestamp = timestamp
    }
}

/// An element kept generically: its attributes and children as structured data.
public struct GenericElement: Sendable, Hashable {
    public var name: String
    public var attributes: [AppleExportAttribute]
    public var children: [GenericElement]
    /// Non-whitespace text content, if any.
    public var text: String?

    public init(name: String, attributes: [AppleExportAttribute], children: [GenericElement] = [], text: String? = nil)
    {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    public subscript(attribute name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }
}

/// An element whose content could not be read, with the reason.
public struct UnreadableElement: Sendable, Hashable {
    public var raw: GenericElement
    public var reason: String
}

/// The fields every sample shares: type, source, device, dates and metadata.
public struct SampleFields: Sendable, Hashable {
    /// The HealthKit identifier as written (`HKQuantityTypeIdentifierHeartRate`).
    public var type: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: DeviceDescription?
    public var creationDate: AppleExportTimestamp?
    public var startDate: AppleExportTimestamp
    public var endDate: AppleExportTimestamp
    public var metadata: [MetadataEntry]
    /// Attributes the reader does not model, kept as written.
    public var otherAttributes: [AppleExportAttribute]
    /// Child elements the reader does not model, kept whole.
    public var otherChildren: [GenericElement]
}

/// One beat of a `HeartRateVariabilityMetadataList`, its time resolved against the parent
/// record's start.
public struct InstantaneousBeat: Sendable, Hashable {
    public var bpm: String
    /// The beat's time as written: a locale-formatted time of day (`11:26:02.34 AM`).
    public var timeText: String
    /// The instant, in seconds since 1970, when the time of day could be resolved.
    public var secondsSince1970: Double?
}

/// A `Record`: a quantity or category sample.
public struct HealthRecordElement: Sendable, Hashable {
    public var sample: SampleFields
    public var unit: String?
    /// The value exactly as written: a number, or a category value name.
    public var value: String?
    public var beats: [InstantaneousBeat]
}

/// A `Correlation` (blood pressure, food) with the records it holds. Those records also stand at
/// top level in the export.
public struct CorrelationElement: Sendable, Hashable {
    public var sample: SampleFields
    public var records: [HealthRecordElement]
}

/// A `WorkoutEvent` (pause, resume, segment, lap, …).
public struct WorkoutEventElement: Sendable, Hashable {
    public var type: String
    public var date: AppleExportTimestamp?
    public var attributes: [AppleExportAttribute]
    public var metadata: [MetadataEntry]
}

/// A `WorkoutStatistics` entry (sum, average, minimum, maximum of one quantity type).
public struct WorkoutStatisticsElement: Sendable, Hashable {
    public var type: String
    public var attributes: [AppleExportAttribute]
}

/// A `WorkoutActivity` (iOS 16 and later) with its own events, statistics and metadata.
public struct WorkoutActivityElement: Sendable, Hashable {
    public var attributes: [AppleExportAttribute]
    public var events: [WorkoutEventElement]
    public var statistics: [WorkoutStatisticsElement]
    public var metadata: [MetadataEntry]
}

/// A `WorkoutRoute`: a GPX file reference, or inline `Location` points in old exports.
public struct WorkoutRouteElement: Sendable, Hashable {
    public var attributes: [AppleExportAttribute]
    public var metadata: [MetadataEntry]
    /// The GPX path as written (`/workout-routes/route_….gpx`), relative to the export folder.
    public var fileReference: String?
    /// Inline points of old exports, each kept as its attributes.
    public var locations: [[AppleExportAttribute]]
}

/// A `Workout`.
public struct WorkoutElement: Sendable, Hashable {
    public var sample: SampleFields
    /// `HKWorkoutActivityTypeRunning`, …
    public var activityType: String
    public var events: [WorkoutEventElement]
    public var statistics: [WorkoutStatisticsElement]
    public var activities: [WorkoutActivityElement]
    public var routes: [WorkoutRouteElement]
}

/// An `ActivitySummary`: one calendar day's rings.
public struct ActivitySummaryElement: Sendable, Hashable {
    /// The calendar day as written (`2000-01-01`): a date, not an instant.
    public var dateComponents: String
    public var attributes: [AppleExportAttribute]
}

/// A `ClinicalRecord` (a FHIR resource reference).
public struct ClinicalRecordElement: Sendable, Hashable {
    public var type: String
    public var identifier: String?
    public var sourceName: String?
    public var receivedDate: AppleExportTimestamp?
    public var attributes: [AppleExportAttribute]
}

/// An `Audiogram` with its `SensitivityPoint`s.
public struct AudiogramElement: Sendable, Hashable {
    public var sample: SampleFields
    public var sensitivityPoints: [[AppleExportAttribute]]
}

/// A `VisionPrescription` with whatever it holds (lens specifications, attachments).
public struct VisionPrescriptionElement: Sendable, Hashable {
    public var type: String
    public var dateIssued: AppleExportTimestamp?
    public var attributes: [AppleExportAttribute]
    public var children: [GenericElement]
}

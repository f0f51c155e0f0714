// A stub of HealthKit for type-checking HealthProbe's adapter on Linux (Scripts/typecheck-apple.sh):
// only what the adapter uses, each declaration as Apple's documentation gives it, at the app's
// minimum iOS 18 (built with Xcode 26) — names, labels, optionality, `@Sendable` handlers, `async`
// variants. The classes are not `Sendable` here: where the documentation's conformances could not
// be confirmed, the stricter choice, so code that type-checks here does not rely on it. Where Apple marks `init()`
// unavailable, so does the stub (not on `HKQuery`, whose subclasses' initialisers need it here).
// Enumerations are compiled with library evolution, as Apple's are: a switch over one needs
// `@unknown default`. Nothing here runs: bodies are `fatalError()`.
import Foundation

@available(iOS 8.0, macOS 13.0, *)
open class HKObjectType: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var identifier: String { fatalError() }
    open class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? { fatalError() }
    open class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? { fatalError() }
    open class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        fatalError()
    }
    open class func workoutType() -> HKWorkoutType { fatalError() }
    @available(iOS 14.0, macOS 13.0, *)
    open class func electrocardiogramType() -> HKElectrocardiogramType { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKSampleType: HKObjectType {}
@available(iOS 8.0, macOS 13.0, *)
open class HKQuantityType: HKSampleType {}
@available(iOS 8.0, macOS 13.0, *)
open class HKCategoryType: HKSampleType {}
@available(iOS 8.0, macOS 13.0, *)
open class HKCorrelationType: HKSampleType {}
@available(iOS 8.0, macOS 13.0, *)
open class HKWorkoutType: HKSampleType {}
@available(iOS 14.0, macOS 13.0, *)
open class HKElectrocardiogramType: HKSampleType {}

@available(iOS 8.0, macOS 13.0, *)
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

@available(iOS 8.0, macOS 13.0, *)
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

@available(iOS 8.0, macOS 13.0, *)
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKSource: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var name: String { fatalError() }
    open var bundleIdentifier: String { fatalError() }
}

@available(iOS 9.0, macOS 13.0, *)
open class HKSourceRevision: NSObject {
    open var source: HKSource { fatalError() }
    open var version: String? { fatalError() }
}

@available(iOS 9.0, macOS 13.0, *)
open class HKDevice: NSObject {
    open var name: String? { fatalError() }
    open var manufacturer: String? { fatalError() }
    open var model: String? { fatalError() }
    open var hardwareVersion: String? { fatalError() }
    open var firmwareVersion: String? { fatalError() }
    open var softwareVersion: String? { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKObject: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var uuid: UUID { fatalError() }
    open var metadata: [String: Any]? { fatalError() }
    open var sourceRevision: HKSourceRevision { fatalError() }
    open var device: HKDevice? { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKSample: HKObject {
    open var sampleType: HKSampleType { fatalError() }
    open var startDate: Date { fatalError() }
    open var endDate: Date { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
public enum HKMetricPrefix: Int, Sendable {
    case none = 0
    case micro = 4
}

@available(iOS 8.0, macOS 13.0, *)
open class HKUnit: NSObject {
    public convenience init(from string: String) { fatalError() }
    open class func voltUnit(with prefix: HKMetricPrefix) -> Self { fatalError() }
    open class func hertz() -> Self { fatalError() }
    open class func count() -> Self { fatalError() }
    open class func minute() -> Self { fatalError() }
    open func unitDivided(by unit: HKUnit) -> HKUnit { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKQuantity: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    public init(unit: HKUnit, doubleValue value: Double) { fatalError() }
    open func `is`(compatibleWith unit: HKUnit) -> Bool { fatalError() }
    open func doubleValue(for unit: HKUnit) -> Double { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKQuantitySample: HKSample {
    @available(iOS 9.0, macOS 13.0, *)
    public init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
        device: HKDevice?, metadata: [String: Any]?
    ) { fatalError() }
    open var quantityType: HKQuantityType { fatalError() }
    open var quantity: HKQuantity { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKCategorySample: HKSample {
    public init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date, metadata: [String: Any]?) {
        fatalError()
    }
    open var categoryType: HKCategoryType { fatalError() }
    open var value: Int { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
public enum HKWorkoutActivityType: UInt, Sendable {
    case americanFootball = 1
    case running = 37
    case other = 3000
}

@available(iOS 8.0, macOS 13.0, *)
open class HKWorkout: HKSample {
    open var workoutActivityType: HKWorkoutActivityType { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKCorrelation: HKSample {
    open var correlationType: HKCorrelationType { fatalError() }
    open var objects: Set<HKSample> { fatalError() }
}

@available(iOS 14.0, macOS 13.0, *)
open class HKElectrocardiogram: HKSample {
    public enum Classification: Int, Sendable {
        case notSet = 0
        case sinusRhythm = 1
        case atrialFibrillation = 2
        case inconclusiveLowHeartRate = 3
        case inconclusiveHighHeartRate = 4
        case inconclusivePoorReading = 5
        case inconclusiveOther = 6
        case unrecognized = 100
    }

    public enum Lead: Int, Sendable {
        case appleWatchSimilarToLeadI = 1
    }

    open class VoltageMeasurement: NSObject {
        open var timeSinceSampleStart: TimeInterval { fatalError() }
        open func quantity(for lead: HKElectrocardiogram.Lead) -> HKQuantity? { fatalError() }
    }

    open var classification: Classification { fatalError() }
    open var averageHeartRate: HKQuantity? { fatalError() }
    open var samplingFrequency: HKQuantity? { fatalError() }
    open var numberOfVoltageMeasurements: Int { fatalError() }
}

@available(iOS 9.0, macOS 13.0, *)
open class HKDeletedObject: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var uuid: UUID { fatalError() }
    open var metadata: [String: Any]? { fatalError() }
}

@available(iOS 11.0, macOS 13.0, *)
public let HKMetadataKeySyncIdentifier: String = "HKMetadataKeySyncIdentifier"
@available(iOS 11.0, macOS 13.0, *)
public let HKMetadataKeySyncVersion: String = "HKMetadataKeySyncVersion"

@available(iOS 9.0, macOS 13.0, *)
open class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying {
    public static var supportsSecureCoding: Bool { true }
    public required init?(coder: NSCoder) { fatalError() }
    open func encode(with coder: NSCoder) { fatalError() }
    open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
public struct HKQueryOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

@available(iOS 8.0, macOS 13.0, *)
open class HKQuery: NSObject {
    open class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = [])
        -> NSPredicate
    { fatalError() }
    open class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        fatalError()
    }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKSampleQuery: HKQuery {
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
public enum HKAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case sharingDenied = 1
    case sharingAuthorized = 2
}

@available(iOS 8.0, macOS 13.0, *)
public struct HKStatisticsOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
}

@available(iOS 8.0, macOS 13.0, *)
open class HKStatistics: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var startDate: Date { fatalError() }
    open var endDate: Date { fatalError() }
    open func sumQuantity() -> HKQuantity? { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKStatisticsCollection: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open func enumerateStatistics(
        from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void
    ) { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKStatisticsCollectionQuery: HKQuery {
    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
        anchorDate: Date, intervalComponents: DateComponents
    ) { fatalError() }
    open var initialResultsHandler:
        (@Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void)?
}

@available(iOS 8.0, macOS 13.0, *)
public typealias HKObserverQueryCompletionHandler = () -> Void

@available(iOS 8.0, macOS 13.0, *)
open class HKObserverQuery: HKQuery {
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?,
        updateHandler:
            @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?)
            -> Void
    ) { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKAnchoredObjectQuery: HKQuery {
    public init(
        type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
        resultsHandler handler:
            @escaping @Sendable (
                HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?
            ) -> Void
    ) { fatalError() }
}

@available(iOS 14.0, macOS 13.0, *)
open class HKElectrocardiogramQuery: HKQuery {
    public enum Result {
        case measurement(HKElectrocardiogram.VoltageMeasurement)
        case done
        case error(any Error)
    }

    public init(
        _ electrocardiogram: HKElectrocardiogram,
        dataHandler: @escaping @Sendable (HKElectrocardiogramQuery, HKElectrocardiogramQuery.Result) -> Void
    ) { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
public enum HKUpdateFrequency: Int, Sendable {
    case immediate = 1
    case hourly = 2
    case daily = 3
    case weekly = 4
}

@available(iOS 12.0, macOS 13.0, *)
public enum HKAuthorizationRequestStatus: Int, Sendable {
    case unknown = 0
    case shouldRequest = 1
    case unnecessary = 2
}

@available(iOS 8.0, macOS 13.0, *)
public struct HKError: Error, Sendable {
    /// Every case Apple declares (iOS 18.4); the enumeration is not frozen, so a switch over it
    /// needs `@unknown default` (the stubs are compiled with library evolution, as Apple's are).
    public enum Code: Int, Sendable {
        case noError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorDatabaseInaccessible = 6
        case errorUserCanceled = 7
        case errorAnotherWorkoutSessionStarted = 8
        case errorUserExitedWorkoutSession = 9
        case errorRequiredAuthorizationDenied = 10
        case errorNoData = 11
        case errorWorkoutActivityNotAllowed = 12
        case errorDataSizeExceeded = 13
        case errorBackgroundWorkoutSessionNotAllowed = 14
        case errorNotPermissibleForGuestUserMode = 15
    }

    public var code: Code { fatalError() }
}

@available(iOS 8.0, macOS 13.0, *)
open class HKHealthStore: NSObject {
    public override init() { fatalError() }
    open class func isHealthDataAvailable() -> Bool { fatalError() }
    open func execute(_ query: HKQuery) { fatalError() }
    open func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus { fatalError() }
    open func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        fatalError()
    }
    open func stop(_ query: HKQuery) { fatalError() }
    @available(iOS 15.0, macOS 13.0, *)
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>)
        async throws
    { fatalError() }
    @available(iOS 12.0, macOS 13.0, *)
    open func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) { fatalError() }
    open func enableBackgroundDelivery(
        for type: HKObjectType, frequency: HKUpdateFrequency,
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { fatalError() }
    open func disableBackgroundDelivery(
        for type: HKObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { fatalError() }
    open func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        fatalError()
    }
}

import Foundation
import HealthProbeArchive

/// Which types an app may write into Health, so that a restore asks permission for those only:
/// asking to share a type HealthKit keeps for itself raises an exception that ends the app
/// ("Authorization to share the following types is disallowed"), so what is not known writable
/// is listed, never attempted.
///
/// Apple documents as read-only ECG recordings (`HKElectrocardiogramType`: "you can't request
/// authorization to share them"), activity summaries (`electrocardiogramType()`'s note, and
/// `HKActivitySummaryType`), clinical records (`HKClinicalType`) and characteristics. The types
/// Apple Watch and iPhone compute themselves are refused the same way (reports in
/// EddyVerbruggen/HealthKit#106 for clinical types, ryanbr/noop#1371 for sleeping wrist
/// temperature, the read-only list kingstinct/react-native-healthkit keeps): those below.
public enum HealthKitWriting {
    public enum Verdict: Sendable, Equatable {
        /// Apps may write it, with the person's permission.
        case writable
        /// Health keeps it for itself; the reason in words.
        case readOnly(String)
        /// Not known to this version: not attempted.
        case unknown
    }

    public static func verdict(for type: String) -> Verdict {
        if let reason = readOnly[type] { return .readOnly(reason) }
        if type.hasPrefix("HKClinicalTypeIdentifier") { return .readOnly("clinical records are read-only") }
        return writable.contains(type) ? .writable : .unknown
    }

    /// Quantity and category types apps write every day (scales, trackers, nutrition and sleep
    /// apps): the only ones a restore asks for.
    static let writable: Set<String> = Set(
        [
            "StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming", "DistanceWheelchair",
            "PushCount", "SwimmingStrokeCount", "FlightsClimbed", "ActiveEnergyBurned", "BasalEnergyBurned",
            "HeartRate", "RestingHeartRate", "HeartRateVariabilitySDNN", "RespiratoryRate", "OxygenSaturation",
            "BodyMass", "Height", "BodyMassIndex", "BodyFatPercentage", "LeanBodyMass", "WaistCircumference",
            "BodyTemperature", "BloodGlucose", "DietaryEnergyConsumed", "DietaryWater", "DietaryProtein",
            "DietaryCarbohydrates", "DietaryFatTotal", "DietarySugar", "DietaryFiber", "DietarySodium",
            "DietaryCaffeine", "VO2Max",
        ].map { "HKQuantityTypeIdentifier" + $0 }
            + ["SleepAnalysis", "MindfulSession", "MenstrualFlow"].map { "HKCategoryTypeIdentifier" + $0 })

    static let readOnly: [String: String] = [
        HealthKitCatalog.electrocardiogramType: "ECG recordings are read-only",
        "HKActivitySummaryTypeIdentifier": "activity summaries are read-only",
        "HKQuantityTypeIdentifierAppleExerciseTime": "exercise minutes are Apple Watch's own",
        "HKQuantityTypeIdentifierAppleStandTime": "stand minutes are Apple Watch's own",
        "HKQuantityTypeIdentifierAppleMoveTime": "move minutes are Apple Watch's own",
        "HKCategoryTypeIdentifierAppleStandHour": "stand hours are Apple Watch's own",
        "HKQuantityTypeIdentifierWalkingHeartRateAverage": "walking heart rate is computed by Apple Watch",
        "HKQuantityTypeIdentifierAtrialFibrillationBurden": "AFib history is computed by Apple Watch",
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature": "sleeping wrist temperature is Apple Watch's own",
        "HKQuantityTypeIdentifierAppleWalkingSteadiness": "walking steadiness is computed by iPhone",
        "HKCategoryTypeIdentifierHighHeartRateEvent": "heart notifications are Apple Watch's own",
        "HKCategoryTypeIdentifierLowHeartRateEvent": "heart notifications are Apple Watch's own",
        "HKCategoryTypeIdentifierIrregularHeartRhythmEvent": "heart notifications are Apple Watch's own",
        "HKCategoryTypeIdentifierLowCardioFitnessEvent": "cardio fitness notifications are Apple Watch's own",
        "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent": "walking steadiness notifications are iPhone's own",
    ]
}

/// HealthKit's identifier tables the live path needs, kept here (not in the Apple-only adapter)
/// so that they are tested on Linux: the sample types HealthProbe monitors, with their kind and
/// unit, and the names exports write for category values.
public enum HealthKitCatalog {
    public struct MonitoredType: Sendable, Hashable {
        public var identifier: String
        public var kind: HealthSample.Kind
        /// The unit values are read in (`HKUnit(from:)`), for quantities.
        public var unit: String?

        public init(_ identifier: String, _ kind: HealthSample.Kind, unit: String? = nil) {
            self.identifier = identifier
            self.kind = kind
            self.unit = unit
        }
    }

    static func quantity(_ name: String, _ unit: String) -> MonitoredType {
        MonitoredType("HKQuantityTypeIdentifier" + name, .quantity, unit: unit)
    }

    static func category(_ name: String) -> MonitoredType {
        MonitoredType("HKCategoryTypeIdentifier" + name, .category)
    }

    /// Every type the live path knows, each with its kind and unit: the core types people use —
    /// activity, heart, respiratory, body measurements, vitals and glucose, nutrition, sleep,
    /// mindfulness, hearing, workouts. The settings choose among them all.
    public static let types: [MonitoredType] =
        [
            // Activity and mobility.
            quantity("StepCount", "count"), quantity("DistanceWalkingRunning", "km"), quantity("DistanceCycling", "km"),
            quantity("DistanceSwimming", "m"), quantity("DistanceWheelchair", "km"), quantity("PushCount", "count"),
            quantity("SwimmingStrokeCount", "count"), quantity("FlightsClimbed", "count"),
            quantity("ActiveEnergyBurned", "kcal"), quantity("BasalEnergyBurned", "kcal"),
            quantity("AppleExerciseTime", "min"), quantity("AppleStandTime", "min"), quantity("AppleMoveTime", "min"),
            quantity("VO2Max", "ml/kg*min"), quantity("WalkingSpeed", "m/s"), quantity("WalkingStepLength", "cm"),
            quantity("WalkingAsymmetryPercentage", "%"), quantity("WalkingDoubleSupportPercentage", "%"),
            quantity("StairAscentSpeed", "m/s"), quantity("StairDescentSpeed", "m/s"),
            quantity("SixMinuteWalkTestDistance", "m"), quantity("RunningSpeed", "m/s"), quantity("RunningPower", "W"),
            quantity("TimeInDaylight", "min"),
            // Heart.
            quantity("HeartRate", "count/min"), quantity("RestingHeartRate", "count/min"),
            quantity("WalkingHeartRateAverage", "count/min"), quantity("HeartRateVariabilitySDNN", "ms"),
            quantity("HeartRateRecoveryOneMinute", "count/min"), quantity("AtrialFibrillationBurden", "%"),
            category("HighHeartRateEvent"), category("LowHeartRateEvent"), category("IrregularHeartRhythmEvent"),
            // Respiratory.
            quantity("RespiratoryRate", "count/min"), quantity("OxygenSaturation", "%"),
            quantity("ForcedVitalCapacity", "L"), quantity("ForcedExpiratoryVolume1", "L"),
            quantity("PeakExpiratoryFlowRate", "L/min"),
            // Body measurements.
            quantity("BodyMass", "kg"), quantity("Height", "cm"), quantity("BodyMassIndex", "count"),
            quantity("BodyFatPercentage", "%"), quantity("LeanBodyMass", "kg"), quantity("WaistCircumference", "cm"),
            quantity("BodyTemperature", "degC"), quantity("AppleSleepingWristTemperature", "degC"),
            // Vitals and glucose.
            quantity("BloodPressureSystolic", "mmHg"), quantity("BloodPressureDiastolic", "mmHg"),
            quantity("BloodGlucose", "mg/dL"),
            MonitoredType("HKCorrelationTypeIdentifierBloodPressure", .correlation),
            // Nutrition.
            quantity("DietaryEnergyConsumed", "kcal"), quantity("DietaryWater", "mL"), quantity("DietaryProtein", "g"),
            quantity("DietaryCarbohydrates", "g"), quantity("DietaryFatTotal", "g"), quantity("DietarySugar", "g"),
            quantity("DietaryFiber", "g"), quantity("DietarySodium", "mg"), quantity("DietaryCaffeine", "mg"),
            MonitoredType("HKCorrelationTypeIdentifierFood", .correlation),
            // Sleep, mindfulness, cycle.
            category("SleepAnalysis"), category("MindfulSession"), category("AppleStandHour"),
            category("MenstrualFlow"),
            // Hearing and environment.
            quantity("EnvironmentalAudioExposure", "dBASPL"), quantity("HeadphoneAudioExposure", "dBASPL"),
            quantity("UVExposure", "count"), quantity("NumberOfTimesFallen", "count"),
            // Workouts.
            MonitoredType(HealthRecord.workoutType, .workout),
            // ECG recordings, with their voltages.
            MonitoredType(electrocardiogramType, .electrocardiogram),
        ]

    /// The identifier HealthKit and exports file ECG recordings under.
    public static let electrocardiogramType = "HKDataTypeIdentifierElectrocardiogram"

    /// `HKElectrocardiogram.Classification` raw values as the Health app's CSV names them (the
    /// words public exports show); the number itself for one this table does not know.
    public static func electrocardiogramClassificationName(rawValue: Int) -> String? {
        switch rawValue {
        case 0: nil
        case 1: "Sinus Rhythm"
        case 2: "Atrial Fibrillation"
        case 3: "Heart Rate Under 50"
        case 4: "Heart Rate Over 150"
        case 5: "Poor Recording"
        case 6: "Inconclusive"
        case 100: "Unrecognized"
        default: String(rawValue)
        }
    }

    /// What the monitor reads until the settings say otherwise: the types people rely on most,
    /// few enough for a background window.
    public static let defaultMonitoredTypes: [MonitoredType] = [
        "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierDistanceWalkingRunning",
        "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierBasalEnergyBurned",
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierRestingHeartRate",
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HKQuantityTypeIdentifierBodyMass",
        "HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic",
        "HKCategoryTypeIdentifierSleepAnalysis", "HKCorrelationTypeIdentifierBloodPressure", HealthRecord.workoutType,
        // What cannot be measured again is watched by default.
        electrocardiogramType,
    ].compactMap { identifier in types.first { $0.identifier == identifier } }

    /// The sample types a correlation holds: blood pressure its two readings, food the dietary
    /// quantities the catalog knows.
    static func memberTypes(of correlation: String) -> [String] {
        switch correlation {
        case "HKCorrelationTypeIdentifierBloodPressure":
            ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"]
        case "HKCorrelationTypeIdentifierFood":
            types.map(\.identifier).filter { $0.hasPrefix("HKQuantityTypeIdentifierDietary") }
        default: []
        }
    }

    /// The types to ask read access for, and to observe with background delivery, so that the
    /// monitored ones can be read: each correlation through the sample types it holds — HealthKit
    /// authorises those, not the correlation type, and does not deliver correlation types in the
    /// background (docs/HEALTHKIT.md). Sorted, each once.
    public static func accessTypes(for identifiers: [String]) -> [String] {
        Set(
            identifiers.flatMap { identifier in
                type(identifier)?.kind == .correlation ? memberTypes(of: identifier) : [identifier]
            }
        ).sorted()
    }

    /// The type with this identifier, when the catalog knows it.
    public static func type(_ identifier: String) -> MonitoredType? {
        types.first { $0.identifier == identifier }
    }

    /// Category values as exports name them (`HKCategoryValueSleepAnalysisAsleepCore`), by type
    /// and raw value.
    static let categoryValueNames: [String: [Int: String]] = [
        "HKCategoryTypeIdentifierSleepAnalysis": [
            0: "HKCategoryValueSleepAnalysisInBed", 1: "HKCategoryValueSleepAnalysisAsleepUnspecified",
            2: "HKCategoryValueSleepAnalysisAwake", 3: "HKCategoryValueSleepAnalysisAsleepCore",
            4: "HKCategoryValueSleepAnalysisAsleepDeep", 5: "HKCategoryValueSleepAnalysisAsleepREM",
        ],
        "HKCategoryTypeIdentifierAppleStandHour": [
            0: "HKCategoryValueAppleStandHourStood", 1: "HKCategoryValueAppleStandHourIdle",
        ],
        "HKCategoryTypeIdentifierMindfulSession": [0: "HKCategoryValueNotApplicable"],
        "HKCategoryTypeIdentifierHighHeartRateEvent": [0: "HKCategoryValueNotApplicable"],
        "HKCategoryTypeIdentifierLowHeartRateEvent": [0: "HKCategoryValueNotApplicable"],
        "HKCategoryTypeIdentifierIrregularHeartRhythmEvent": [0: "HKCategoryValueNotApplicable"],
        "HKCategoryTypeIdentifierMenstrualFlow": [
            1: "HKCategoryValueMenstrualFlowUnspecified", 2: "HKCategoryValueMenstrualFlowLight",
            3: "HKCategoryValueMenstrualFlowMedium", 4: "HKCategoryValueMenstrualFlowHeavy",
            5: "HKCategoryValueMenstrualFlowNone",
        ],
    ]

    /// A category value's raw value from the text an export writes (its name, or a number); nil
    /// for a name this table does not know.
    public static func categoryRawValue(type: String, text: String) -> Int? {
        if let number = Int(text) { return number }
        return categoryValueNames[type]?.first { $0.value == text }?.key
    }

    /// The text an export writes for a category value: its name when known, else the number.
    public static func categoryValueName(type: String, rawValue: Int) -> String {
        categoryValueNames[type]?[rawValue] ?? String(rawValue)
    }

    /// `HKWorkoutActivityType` raw values in order from 1, as exports name them (the gaps are
    /// values Apple retired or skipped).
    static let workoutActivityNames: [String] = [
        "AmericanFootball", "Archery", "AustralianFootball", "Badminton", "Baseball", "Basketball", "Bowling", "Boxing",
        "Climbing", "Cricket", "CrossTraining", "Curling", "Cycling", "Dance", "DanceInspiredTraining", "Elliptical",
        "EquestrianSports", "Fencing", "Fishing", "FunctionalStrengthTraining", "Golf", "Gymnastics", "Handball",
        "Hiking", "Hockey", "Hunting", "Lacrosse", "MartialArts", "MindAndBody", "MixedMetabolicCardioTraining",
        "PaddleSports", "Play", "PreparationAndRecovery", "Racquetball", "Rowing", "Rugby", "Running", "Sailing",
        "SkatingSports", "SnowSports", "Soccer", "Softball", "Squash", "StairClimbing", "SurfingSports", "Swimming",
        "TableTennis", "Tennis", "TrackAndField", "TraditionalStrengthTraining", "Volleyball", "Walking",
        "WaterFitness", "WaterPolo", "WaterSports", "Wrestling", "Yoga", "Barre", "CoreTraining", "CrossCountrySkiing",
        "DownhillSkiing", "Flexibility", "HighIntensityIntervalTraining", "JumpRope", "Kickboxing", "Pilates",
        "Snowboarding", "Stairs", "StepTraining", "WheelchairWalkPace", "WheelchairRunPace", "TaiChi", "MixedCardio",
        "HandCycling", "DiscSports", "FitnessGaming", "CardioDance", "SocialDance", "Pickleball", "Cooldown", "",
        "SwimBikeRun", "Transition", "UnderwaterDiving",
    ]

    /// `HKWorkoutActivityTypeRunning` for 37; `HKWorkoutActivityTypeOther` for 3000; the number
    /// itself for a value this table does not know.
    public static func workoutActivityTypeName(rawValue: UInt) -> String {
        if rawValue == 3000 { return "HKWorkoutActivityTypeOther" }
        let index = Int(rawValue) - 1
        guard workoutActivityNames.indices.contains(index), !workoutActivityNames[index].isEmpty else {
            return "HKWorkoutActivityType\(rawValue)"
        }
        return "HKWorkoutActivityType" + workoutActivityNames[index]
    }
}

extension HealthKitCatalog.MonitoredType {
    /// The identifier without HealthKit's prefix: "StepCount", "SleepAnalysis", "Workout".
    public var shortName: String { HealthKitCatalog.shortName(of: identifier) }
}

extension HealthKitCatalog {
    /// The catalog's type called `name`: its identifier, its short name or its name for people,
    /// in any case.
    public static func monitoredType(named name: String) -> MonitoredType? {
        let wanted = name.lowercased()
        return types.first {
            $0.identifier.lowercased() == wanted || $0.shortName.lowercased() == wanted
                || HealthKitCatalog.displayName(of: $0.identifier).lowercased() == wanted
        }
    }
}

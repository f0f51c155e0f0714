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

    /// What the monitor reads by default: the types people rely on most.
    public static let monitoredTypes: [MonitoredType] = [
        quantity("StepCount", "count"), quantity("DistanceWalkingRunning", "km"),
        quantity("ActiveEnergyBurned", "kcal"), quantity("BasalEnergyBurned", "kcal"),
        quantity("HeartRate", "count/min"), quantity("RestingHeartRate", "count/min"),
        quantity("HeartRateVariabilitySDNN", "ms"), quantity("BodyMass", "kg"),
        quantity("BloodPressureSystolic", "mmHg"), quantity("BloodPressureDiastolic", "mmHg"),
        MonitoredType("HKCategoryTypeIdentifierSleepAnalysis", .category),
        MonitoredType("HKCorrelationTypeIdentifierBloodPressure", .correlation),
        MonitoredType(HealthRecord.workoutType, .workout),
    ]

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
    ]

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
    public var shortName: String {
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier"]
        where identifier.hasPrefix(prefix) {
            return String(identifier.dropFirst(prefix.count))
        }
        return identifier == HealthRecord.workoutType ? "Workout" : identifier
    }
}

extension HealthKitCatalog {
    /// The monitored type called `name`: its identifier, its short name or its name for people,
    /// in any case.
    public static func monitoredType(named name: String) -> MonitoredType? {
        let wanted = name.lowercased()
        return monitoredTypes.first {
            $0.identifier.lowercased() == wanted || $0.shortName.lowercased() == wanted
                || SampleTypeCatalog.displayName(of: $0.identifier).lowercased() == wanted
        }
    }
}

/// The Health database's sample types (`samples.data_type`) and how its canonical units convert
/// to the units exports write (docs/BACKUP.md). Only types whose code and canonical unit the
/// published sources agree on are listed; a sample of any other code is counted as not read.
public enum HealthDatabaseTypes {
    public struct Entry: Sendable, Equatable {
        /// The HealthKit identifier, as exports write it.
        public var identifier: String
        public var kind: HealthSample.Kind
        /// The unit exports write (the catalog's), for quantities.
        public var unit: String?
        /// Multiplies a stored (canonical) amount into `unit`.
        public var factor: Double

        init(_ identifier: String, _ kind: HealthSample.Kind, unit: String? = nil, factor: Double = 1) {
            self.identifier = identifier
            self.kind = kind
            self.unit = unit
            self.factor = factor
        }

        static func quantity(_ name: String, _ unit: String, _ factor: Double = 1) -> Entry {
            Entry("HKQuantityTypeIdentifier" + name, .quantity, unit: unit, factor: factor)
        }

        static func category(_ name: String) -> Entry { Entry("HKCategoryTypeIdentifier" + name, .category) }
    }

    /// By code. Heart rate is stored per second, resting heart rate per minute; distance in
    /// metres, height and step length in metres, fractions (body fat, oxygen saturation) from 0
    /// to 1, time in seconds.
    public static let byCode: [Int: Entry] = [
        0: .quantity("BodyMassIndex", "count"), 1: .quantity("BodyFatPercentage", "%", 100),
        2: .quantity("Height", "cm", 100), 3: .quantity("BodyMass", "kg"), 4: .quantity("LeanBodyMass", "kg"),
        5: .quantity("HeartRate", "count/min", 60), 7: .quantity("StepCount", "count"),
        8: .quantity("DistanceWalkingRunning", "km", 0.001), 9: .quantity("BasalEnergyBurned", "kcal"),
        10: .quantity("ActiveEnergyBurned", "kcal"), 12: .quantity("FlightsClimbed", "count"),
        14: .quantity("OxygenSaturation", "%", 100), 16: .quantity("BloodPressureSystolic", "mmHg"),
        17: .quantity("BloodPressureDiastolic", "mmHg"), 62: .quantity("BodyTemperature", "degC"),
        63: .category("SleepAnalysis"), 70: .category("AppleStandHour"),
        75: .quantity("AppleExerciseTime", "min", 1.0 / 60), 79: Entry(HealthRecord.workoutType, .workout),
        83: .quantity("DistanceCycling", "km", 0.001), 99: .category("MindfulSession"),
        118: .quantity("RestingHeartRate", "count/min"), 139: .quantity("HeartRateVariabilitySDNN", "ms"),
        187: .quantity("WalkingSpeed", "m/s"), 188: .quantity("WalkingStepLength", "cm", 100),
        279: .quantity("TimeInDaylight", "min", 1.0 / 60),
    ]

    /// SQL true for an archived record of a kind and type a Health database describes as this
    /// reader maps it: what a backup's check compares; every other record is carried over.
    static let describedRecordsSQL: String = {
        let types = Set(byCode.values.map(\.identifier)).sorted().map { "'\($0)'" }.joined(separator: ", ")
        return "kind IN ('record', 'workout') AND type IN (\(types))"
    }()

    /// The code of a HealthKit identifier, for fixtures and tests.
    public static func code(of identifier: String) -> Int? {
        byCode.first { $0.value.identifier == identifier }?.key
    }

    /// Seconds from 1970-01-01 to 2001-01-01, where the database counts from.
    public static let referenceDate = 978_307_200.0
    /// The key ``HealthDatabaseReader/forEachSample(_:)`` counts rows under that could not be
    /// read at all: no type, an impossible date or value, a value of the wrong kind.
    public static let unreadableRow = -1
}

/// The Health database's sample types (`samples.data_type`) and how its canonical units convert
/// to the units exports write (docs/BACKUP.md). Only types whose code and canonical unit the
/// published sources agree on are listed; a sample of any other code is counted as not read.
public enum HealthDatabaseTypes {
    public struct Entry: Sendable, Equatable {
        /// The HealthKit identifier, as exports write it.
        public var identifier: String
        public var kind: HealthSample.Kind
        /// The unit exports write, for quantities: the catalog's (``HealthKitCatalog``), the one
        /// table of HealthKit's types and units the export mapper, the live path and this reader
        /// share.
        public var unit: String?
        /// Multiplies a stored (canonical) amount into `unit`.
        public var factor: Double

        init(_ identifier: String, _ kind: HealthSample.Kind, unit: String? = nil, factor: Double = 1) {
            self.identifier = identifier
            self.kind = kind
            self.unit = unit
            self.factor = factor
        }

        /// A quantity in the catalog's unit; `factor` turns the database's canonical amount into it.
        static func quantity(_ name: String, _ factor: Double = 1) -> Entry {
            let identifier = "HKQuantityTypeIdentifier" + name
            return Entry(identifier, .quantity, unit: HealthKitCatalog.type(identifier)?.unit, factor: factor)
        }

        static func category(_ name: String) -> Entry { Entry("HKCategoryTypeIdentifier" + name, .category) }
    }

    /// By code. Heart rate is stored per second, resting heart rate per minute; distance in
    /// metres, height and step length in metres, fractions (body fat, oxygen saturation) from 0
    /// to 1, time in seconds.
    public static let byCode: [Int: Entry] = [
        0: .quantity("BodyMassIndex"), 1: .quantity("BodyFatPercentage", 100),
        2: .quantity("Height", 100), 3: .quantity("BodyMass"), 4: .quantity("LeanBodyMass"),
        5: .quantity("HeartRate", 60), 7: .quantity("StepCount"),
        8: .quantity("DistanceWalkingRunning", 0.001), 9: .quantity("BasalEnergyBurned"),
        10: .quantity("ActiveEnergyBurned"), 12: .quantity("FlightsClimbed"),
        14: .quantity("OxygenSaturation", 100), 16: .quantity("BloodPressureSystolic"),
        17: .quantity("BloodPressureDiastolic"), 62: .quantity("BodyTemperature"),
        63: .category("SleepAnalysis"), 70: .category("AppleStandHour"),
        75: .quantity("AppleExerciseTime", 1.0 / 60), 79: Entry(HealthRecord.workoutType, .workout),
        83: .quantity("DistanceCycling", 0.001), 99: .category("MindfulSession"),
        118: .quantity("RestingHeartRate"), 139: .quantity("HeartRateVariabilitySDNN"),
        187: .quantity("WalkingSpeed"), 188: .quantity("WalkingStepLength", 100),
        279: .quantity("TimeInDaylight", 1.0 / 60),
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

import Foundation

/// One property of a `DailySummary` (docs/GRAPH.md §3): which samples feed it, how a day's samples
/// combine, the unit it is kept in and how it is rounded (as HealthGraphSync rounds, so that its
/// dashboards show the same figures).
public struct SummaryMetric: Sendable {
    public enum Combination: Sendable {
        case mean, minimum, maximum, sum
        /// The reading latest in the day.
        case last
        /// Samples whose category value is this one.
        case count(of: String)
        /// Minutes between start and end of samples with one of these category values, in hours.
        case asleepHours(values: Set<String>)

        /// Whether the day figures give it (docs/DESIGN.md §8a): a sum, time asleep, a discrete
        /// type's mean, lowest or highest. Counts and last readings the graph reads itself.
        var isDayFigure: Bool {
            switch self {
            case .mean, .minimum, .maximum, .sum, .asleepHours: true
            case .last, .count: false
            }
        }
    }

    /// Whether the figure adds up the day's samples (a sum or time asleep), as the Health app's
    /// figure of its type does by source: the figures one could be subtracted from the other.
    public var isSummedFigure: Bool {
        switch combination {
        case .sum, .asleepHours: true
        default: false
        }
    }

    public let property: String
    public let sampleType: String
    public let combination: Combination
    /// The unit the property is kept in (nil: as recorded).
    public let unit: Dimension?
    /// A fraction kept as a percentage (oxygen saturation).
    public let percentage: Bool
    /// Decimals kept; 0 writes an integer.
    public let decimals: Int

    init(
        _ property: String, _ sampleType: String, _ combination: Combination, unit: Dimension? = nil,
        percentage: Bool = false, decimals: Int = 1
    ) {
        self.property = property
        self.sampleType = sampleType
        self.combination = combination
        self.unit = unit
        self.percentage = percentage
        self.decimals = decimals
    }

    static let quantity = "HKQuantityTypeIdentifier"
    static let category = "HKCategoryTypeIdentifier"
    public static let sleepType = category + "SleepAnalysis"
    public static let asleepValues: Set<String> = Set(
        ["Asleep", "AsleepCore", "AsleepDeep", "AsleepREM", "AsleepUnspecified"].map {
            "HKCategoryValueSleepAnalysis" + $0
        })
    public static let inBedValue = "HKCategoryValueSleepAnalysisInBed"

    /// Every metric, in the order HealthGraphSync writes them. `workout_count` and
    /// `workout_minutes` come from workouts, not samples.
    public static let all: [SummaryMetric] = [
        SummaryMetric("avg_heart_rate", quantity + "HeartRate", .mean),
        SummaryMetric("min_heart_rate", quantity + "HeartRate", .minimum),
        SummaryMetric("max_heart_rate", quantity + "HeartRate", .maximum),
        SummaryMetric("resting_heart_rate", quantity + "RestingHeartRate", .mean),
        SummaryMetric("hrv_mean", quantity + "HeartRateVariabilitySDNN", .mean),
        SummaryMetric("total_steps", quantity + "StepCount", .sum, decimals: 0),
        SummaryMetric(
            "total_distance_km", quantity + "DistanceWalkingRunning", .sum, unit: UnitLength.kilometers, decimals: 2),
        SummaryMetric("active_energy_kcal", quantity + "ActiveEnergyBurned", .sum, unit: UnitEnergy.kilocalories),
        SummaryMetric("basal_energy_kcal", quantity + "BasalEnergyBurned", .sum, unit: UnitEnergy.kilocalories),
        SummaryMetric("flights_climbed", quantity + "FlightsClimbed", .sum, decimals: 0),
        SummaryMetric(
            "exercise_minutes", quantity + "AppleExerciseTime", .sum, unit: UnitDuration.minutes, decimals: 0),
        SummaryMetric(
            "stand_hours", category + "AppleStandHour", .count(of: "HKCategoryValueAppleStandHourStood"), decimals: 0),
        SummaryMetric("avg_blood_oxygen", quantity + "OxygenSaturation", .mean, percentage: true),
        SummaryMetric("avg_respiratory_rate", quantity + "RespiratoryRate", .mean),
        SummaryMetric("body_mass_kg", quantity + "BodyMass", .last, unit: UnitMass.kilograms),
        SummaryMetric("vo2max", quantity + "VO2Max", .last),
        SummaryMetric("sleep_hours", sleepType, .asleepHours(values: asleepValues)),
    ]

    /// The properties a sync owns on a `DailySummary`: a day written whole sets each of them
    /// or removes it, and leaves any other property alone.
    public static let properties: [String] = all.map(\.property) + ["workout_count", "workout_minutes"]

    /// The unit the property is written in, as HealthKit spells it.
    var unitName: String? {
        if percentage { return "%" }
        switch unit {
        case UnitLength.kilometers: return "km"
        case UnitEnergy.kilocalories: return "kcal"
        case UnitMass.kilograms: return "kg"
        case UnitDuration.minutes: return "min"
        default: return Self.recordedUnits[sampleType]
        }
    }

    private static let recordedUnits: [String: String] = [
        quantity + "HeartRate": "count/min", quantity + "RestingHeartRate": "count/min",
        quantity + "HeartRateVariabilitySDNN": "ms", quantity + "StepCount": "count",
        quantity + "FlightsClimbed": "count", quantity + "RespiratoryRate": "count/min",
        quantity + "VO2Max": "mL/min·kg", category + "AppleStandHour": "count", sleepType: "hr",
    ]

    /// The sample types a summary reads.
    public static let sampleTypes: Set<String> = Set(all.map(\.sampleType))

    /// The metrics of each sample type.
    static let byType: [String: [SummaryMetric]] = Dictionary(grouping: all, by: \.sampleType)

    /// A value in the metric's unit, from a record's value and unit; nil when the unit cannot be
    /// converted (the value is left out rather than mixed with others).
    func converted(_ value: Double, from unitText: String?) -> Double? {
        var value = value
        if percentage, value <= 1 { value *= 100 }
        guard let unit else { return value }
        guard let unitText, let recorded = Self.unit(unitText, like: unit) else { return nil }
        if recorded == unit { return value }
        return Measurement(value: value, unit: recorded).converted(to: unit).value
    }

    /// HealthKit's unit strings as Foundation units, of the same dimension as `like`.
    private static func unit(_ text: String, like target: Dimension) -> Dimension? {
        let unit: Dimension? =
            switch text {
            case "m": UnitLength.meters
            case "km": UnitLength.kilometers
            case "cm": UnitLength.centimeters
            case "mi": UnitLength.miles
            case "ft": UnitLength.feet
            case "yd": UnitLength.yards
            case "kcal", "Cal": UnitEnergy.kilocalories
            case "cal": UnitEnergy.calories
            case "kJ": UnitEnergy.kilojoules
            case "J": UnitEnergy.joules
            case "kg": UnitMass.kilograms
            case "g": UnitMass.grams
            case "lb": UnitMass.pounds
            case "oz": UnitMass.ounces
            case "st": UnitMass.stones
            case "min": UnitDuration.minutes
            case "s": UnitDuration.seconds
            case "hr": UnitDuration.hours
            default: nil
            }
        guard let unit, type(of: unit) == type(of: target) else { return nil }
        return unit
    }

    /// The value as the graph keeps it: rounded, an integer where no decimals are kept.
    func rounded(_ value: Double) -> CypherValue {
        if decimals == 0 { return .integer(Int64(value.rounded())) }
        let scale = pow(10, Double(decimals))
        return .float((value * scale).rounded() / scale)
    }
}

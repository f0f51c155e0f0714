/// What HealthProbe knows about HealthKit sample types: how a day of one adds up, and a name
/// for people.
public enum SampleTypeCatalog {
    /// How a day's samples combine into one number of the daily series.
    public enum DailyAggregation: Sendable, Equatable {
        /// Summed (steps, energy, distance): a missing day is a day of zero.
        case sum
        /// Averaged (heart rate, body mass): a missing day has no value.
        case mean
        /// Counted (categories, workouts and other elements without a number).
        case count
    }

    public static let cumulativeQuantities: Set<String> = [
        "StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceWheelchair", "DistanceSwimming",
        "DistanceDownhillSnowSports", "DistanceCrossCountrySkiing", "DistancePaddleSports", "DistanceRowing",
        "DistanceSkatingSports", "BasalEnergyBurned", "ActiveEnergyBurned", "FlightsClimbed", "NikeFuel",
        "AppleExerciseTime", "AppleMoveTime", "AppleStandTime", "PushCount", "SwimmingStrokeCount",
        "NumberOfTimesFallen", "UVExposure", "TimeInDaylight", "NumberOfAlcoholicBeverages", "InhalerUsage",
        "InsulinDelivery",
    ].reduce(into: Set<String>()) { $0.insert("HKQuantityTypeIdentifier" + $1) }

    /// Cumulative quantity types are summed, other numeric types averaged, the rest counted.
    public static func dailyAggregation(of sampleType: String, hasValues: Bool) -> DailyAggregation {
        if cumulativeQuantities.contains(sampleType) || sampleType.hasPrefix("HKQuantityTypeIdentifierDietary") {
            return .sum
        }
        return hasValues ? .mean : .count
    }

    private static let prefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
        "HKDataTypeIdentifier", "HKClinicalTypeIdentifier",
    ]

    /// The identifier without HealthKit's prefix: "StepCount", "SleepAnalysis", "Workout",
    /// "ActivitySummary" — what people type for a type.
    public static func shortName(of sampleType: String) -> String {
        switch sampleType {
        case "HKWorkoutTypeIdentifier": return "Workout"
        case "HKActivitySummaryTypeIdentifier": return "ActivitySummary"
        default: break
        }
        guard let prefix = prefixes.first(where: { sampleType.hasPrefix($0) }) else { return sampleType }
        return String(sampleType.dropFirst(prefix.count))
    }

    /// "HKQuantityTypeIdentifierHeartRate" → "heart rate"; acronyms stay ("heart rate variability SDNN").
    public static func displayName(of sampleType: String) -> String {
        switch sampleType {
        case "HKWorkoutTypeIdentifier": return "workout"
        case "HKActivitySummaryTypeIdentifier": return "activity summary"
        case "HKDataTypeIdentifierElectrocardiogram": return "ECG"
        // Not "dietary fat total": a day's figure of it is already a total ("daily … total").
        case "HKQuantityTypeIdentifierDietaryFatTotal": return "dietary fat"
        default: break
        }
        guard let prefix = prefixes.first(where: { sampleType.hasPrefix($0) }) else { return sampleType }
        let name = Array(sampleType.dropFirst(prefix.count))
        var words: [String] = []
        var current = ""
        for (index, character) in name.enumerated() {
            let startsWord =
                character.isUppercase && index > 0
                && (!name[index - 1].isUppercase || (index + 1 < name.count && name[index + 1].isLowercase))
            if startsWord && !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { word in
            word.count > 1 && word.dropFirst().contains(where: \.isUppercase) ? word : word.lowercased()
        }.joined(separator: " ")
    }
}

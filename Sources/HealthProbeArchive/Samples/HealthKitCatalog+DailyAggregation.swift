/// How a day of each sample type adds up, for the daily series the divergence detector, the
/// charts and the assistant compare.
extension HealthKitCatalog {
    /// How a day's samples combine into one number of the daily series.
    public enum DailyAggregation: Sendable, Equatable {
        /// Summed (steps, energy, distance): a missing day is a day of zero.
        case sum
        /// Averaged (heart rate, body mass): a missing day has no value.
        case mean
        /// Counted (categories, workouts and other elements without a number).
        case count
    }

    /// The quantity types Apple documents as cumulative (each identifier's page: "measure
    /// cumulative values"); summed by day, and the only ones a `.cumulativeSum` statistics
    /// query may be asked of. UV exposure is discrete ("measure discrete values": a UV index),
    /// and HealthKit raises an exception for a sum of it.
    public static let cumulativeQuantities: Set<String> = [
        "StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceWheelchair", "DistanceSwimming",
        "DistanceDownhillSnowSports", "DistanceCrossCountrySkiing", "DistancePaddleSports", "DistanceRowing",
        "DistanceSkatingSports", "BasalEnergyBurned", "ActiveEnergyBurned", "FlightsClimbed", "NikeFuel",
        "AppleExerciseTime", "AppleMoveTime", "AppleStandTime", "PushCount", "SwimmingStrokeCount",
        "NumberOfTimesFallen", "TimeInDaylight", "NumberOfAlcoholicBeverages", "InhalerUsage",
        "InsulinDelivery",
    ].reduce(into: Set<String>()) { $0.insert("HKQuantityTypeIdentifier" + $1) }

    /// Cumulative quantity types are summed, other numeric types averaged, the rest counted.
    public static func dailyAggregation(of sampleType: String, hasValues: Bool) -> DailyAggregation {
        if cumulativeQuantities.contains(sampleType) || sampleType.hasPrefix("HKQuantityTypeIdentifierDietary") {
            return .sum
        }
        return hasValues ? .mean : .count
    }
}

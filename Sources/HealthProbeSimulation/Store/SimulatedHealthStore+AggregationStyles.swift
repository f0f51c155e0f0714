/// HealthKit's aggregation style of each quantity type, as the type's own page in Apple's
/// documentation says it ("measure cumulative values", "measure discrete values"; the two sound
/// exposures "discrete values of the equivalent continuous sound pressure level"), listed with
/// those pages in docs/HEALTHKIT.md. Written apart from the catalog's daily aggregation, so that
/// the live path's statistics are held against what HealthKit would accept, not against
/// themselves: Apple's `HKQuantityAggregationStyle` says discrete types support average, minimum
/// and maximum and cumulative ones only a sum, and HealthKit raises an exception (which ends the
/// app) for a statistics option a type does not support.
extension SimulatedHealthStore {
    public enum AggregationStyle: String, Sendable, Equatable {
        case cumulative
        case discrete
        case discreteEquivalentContinuousLevel = "discrete (equivalent continuous sound level)"
    }

    /// Each quantity type by its name without `HKQuantityTypeIdentifier`.
    public static let aggregationStyles: [String: AggregationStyle] = {
        let cumulative = [
            "StepCount", "DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming",
            "DistanceWheelchair", "DistanceDownhillSnowSports", "DistanceCrossCountrySkiing",
            "DistancePaddleSports", "DistanceRowing", "DistanceSkatingSports", "PushCount",
            "SwimmingStrokeCount", "FlightsClimbed", "ActiveEnergyBurned", "BasalEnergyBurned",
            "AppleExerciseTime", "AppleStandTime", "AppleMoveTime", "NikeFuel", "TimeInDaylight",
            "NumberOfTimesFallen", "InhalerUsage", "InsulinDelivery", "NumberOfAlcoholicBeverages",
            "DietaryEnergyConsumed", "DietaryWater", "DietaryProtein", "DietaryCarbohydrates",
            "DietaryFatTotal", "DietarySugar", "DietaryFiber", "DietarySodium", "DietaryCaffeine",
        ]
        let discrete = [
            "VO2Max", "WalkingSpeed", "WalkingStepLength", "WalkingAsymmetryPercentage",
            "WalkingDoubleSupportPercentage", "StairAscentSpeed", "StairDescentSpeed",
            "SixMinuteWalkTestDistance", "RunningSpeed", "RunningPower", "HeartRate", "RestingHeartRate",
            "WalkingHeartRateAverage", "HeartRateVariabilitySDNN", "HeartRateRecoveryOneMinute",
            "AtrialFibrillationBurden", "RespiratoryRate", "OxygenSaturation", "ForcedVitalCapacity",
            "ForcedExpiratoryVolume1", "PeakExpiratoryFlowRate", "BodyMass", "Height", "BodyMassIndex",
            "BodyFatPercentage", "LeanBodyMass", "WaistCircumference", "BodyTemperature",
            "AppleSleepingWristTemperature", "BloodPressureSystolic", "BloodPressureDiastolic",
            "BloodGlucose", "UVExposure",
        ]
        let soundLevels = ["EnvironmentalAudioExposure", "HeadphoneAudioExposure"]
        var styles: [String: AggregationStyle] = [:]
        for name in cumulative { styles[name] = .cumulative }
        for name in discrete { styles[name] = .discrete }
        for name in soundLevels { styles[name] = .discreteEquivalentContinuousLevel }
        return styles
    }()

    /// What HealthKit would raise for a statistic the type does not support: a test that meets
    /// it found a query that would end the app on a phone.
    public struct UnsupportedStatistic: Error, Equatable, CustomStringConvertible {
        public var type: String
        public var option: String

        public var description: String {
            "HealthKit raises an exception: \(option) is not supported by \(type)'s aggregation style"
        }
    }

    /// Refuses `option` for `type` as HealthKit does: a sum only of a cumulative type, an average,
    /// minimum or maximum only of a discrete one, nothing of a type HealthKit does not know.
    func requireSupport(of option: String, for type: String) throws {
        let prefix = "HKQuantityTypeIdentifier"
        let name = type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type
        guard let style = Self.aggregationStyles[name] else {
            throw UnsupportedStatistic(type: type, option: option)
        }
        let supported = option == "cumulativeSum" ? style == .cumulative : style != .cumulative
        guard supported else { throw UnsupportedStatistic(type: type, option: option) }
    }
}

import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A revealed workout reads as its duration, distance and energy, whichever way its export wrote them.
@Suite("Workout values")
struct WorkoutSummaryTests {
    @Test func olderExportsWriteThemAsTheWorkoutsAttributes() {
        let details = """
            {"activityType":"HKWorkoutActivityTypeRunning","otherAttributes":{"duration":"40","durationUnit":"min",\
            "totalDistance":"5.2","totalDistanceUnit":"km","totalEnergyBurned":"310","totalEnergyBurnedUnit":"kcal"}}
            """
        #expect(WorkoutSummary.text(details: details) == "40 min, 5.2 km, 310 kcal")
    }

    @Test func newerExportsWriteDistanceAndEnergyAsStatistics() {
        let details = """
            {"otherAttributes":{"duration":"20","durationUnit":"min"},"statistics":[\
            {"type":"HKQuantityTypeIdentifierActiveEnergyBurned","attributes":{"sum":"163.4","unit":"kcal"}},\
            {"type":"HKQuantityTypeIdentifierBasalEnergyBurned","attributes":{"sum":"30","unit":"kcal"}},\
            {"type":"HKQuantityTypeIdentifierDistanceWalkingRunning","attributes":{"sum":"3.1","unit":"km"}}]}
            """
        #expect(WorkoutSummary.text(details: details) == "20 min, 3.1 km, 163.4 kcal")
    }

    @Test func aWorkoutWithNoneOfThemHasNoValue() {
        #expect(WorkoutSummary.text(details: #"{"activityType":"HKWorkoutActivityTypeYoga"}"#) == nil)
        #expect(WorkoutSummary.text(details: nil) == nil)
    }
}

import HealthProbeArchive
import Testing

@testable import HealthProbeKit

/// A type named as people write it, and a slip answered with the nearest type the archive holds.
@Suite("Sample type names")
struct SampleTypeNamesTests {
    static let held = [
        "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
        "HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierBodyMass",
    ]

    @Test(arguments: [
        ("steps", "HKQuantityTypeIdentifierStepCount"), ("Step Count", "HKQuantityTypeIdentifierStepCount"),
        ("heart_rate", "HKQuantityTypeIdentifierHeartRate"), ("weight", "HKQuantityTypeIdentifierBodyMass"),
        ("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryTypeIdentifierSleepAnalysis"),
    ])
    func aNamePeopleUseIsFound(name: String, identifier: String) {
        #expect(SampleTypeNames.resolve(name, among: Self.held) == .found(identifier))
    }

    /// A slip of a word people use is as near as a slip of the type's name.
    @Test(arguments: [
        ("stepz", "HKQuantityTypeIdentifierStepCount"), ("hartrate", "HKQuantityTypeIdentifierHeartRate"),
        ("weigth", "HKQuantityTypeIdentifierBodyMass"), ("slep", "HKCategoryTypeIdentifierSleepAnalysis"),
    ])
    func aSlipGetsTheNearestHeld(name: String, identifier: String) {
        guard case .unknown(let nearest) = SampleTypeNames.resolve(name, among: Self.held) else {
            Issue.record("\(name) was found")
            return
        }
        #expect(nearest.first == identifier, "\(nearest)")
    }

    @Test func nothingNearIsNothingSuggested() {
        #expect(SampleTypeNames.resolve("oxygen tank pressure", among: Self.held) == .unknown(nearest: []))
    }
}

import Testing

@testable import HealthProbeKit

/// One table of HealthKit's types and units: the Health database's reader takes each unit from
/// the catalog the live path and the settings use, and keeps only the factor from the database's
/// canonical unit. Each factor was written for one unit; if the catalog's changed, this says so.
@Suite("HealthKit's types: one catalog")
struct HealthKitTypeTableTests {
    /// The unit each database factor turns the canonical amount into (docs/BACKUP.md).
    static let unitsTheFactorsAreFor: [String: String] = [
        "BodyMassIndex": "count", "BodyFatPercentage": "%", "Height": "cm", "BodyMass": "kg", "LeanBodyMass": "kg",
        "HeartRate": "count/min", "StepCount": "count", "DistanceWalkingRunning": "km", "BasalEnergyBurned": "kcal",
        "ActiveEnergyBurned": "kcal", "FlightsClimbed": "count", "OxygenSaturation": "%",
        "BloodPressureSystolic": "mmHg", "BloodPressureDiastolic": "mmHg", "BodyTemperature": "degC",
        "AppleExerciseTime": "min", "DistanceCycling": "km", "RestingHeartRate": "count/min",
        "HeartRateVariabilitySDNN": "ms", "WalkingSpeed": "m/s", "WalkingStepLength": "cm", "TimeInDaylight": "min",
    ]

    @Test func everyTypeTheDatabaseReaderKnowsIsTheCatalogsWithTheUnitItsFactorIsFor() throws {
        for (code, entry) in HealthDatabaseTypes.byCode {
            let catalogued = try #require(HealthKitCatalog.type(entry.identifier), "code \(code): \(entry.identifier)")
            #expect(catalogued.kind == entry.kind, "\(entry.identifier)")
            #expect(entry.unit == catalogued.unit, "\(entry.identifier)")
            if entry.kind == .quantity {
                let name = String(entry.identifier.dropFirst("HKQuantityTypeIdentifier".count))
                #expect(entry.unit == Self.unitsTheFactorsAreFor[name], "\(entry.identifier): \(entry.unit ?? "none")")
            }
        }
        #expect(
            HealthDatabaseTypes.byCode.values.filter { $0.kind == .quantity }.count == Self.unitsTheFactorsAreFor.count)
    }
}

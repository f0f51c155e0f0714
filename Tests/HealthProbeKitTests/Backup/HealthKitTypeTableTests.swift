import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// One table of HealthKit's types and units: the Health database's reader takes each unit from
/// the catalog the live path and the settings use, and keeps only the factor from the database's
/// canonical unit; the names and daily sums are the same catalog's. Each factor was written for one unit; if the catalog's changed, this says so.
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

    /// The names and daily sums are the same catalog's: every summed type is a quantity, and
    /// every one the live path monitors is summed in a unit that adds up (not a rate or a share).
    @Test func theSummedTypesAreQuantitiesTheCatalogKnowsInUnitsThatAddUp() {
        for identifier in HealthKitCatalog.cumulativeQuantities {
            #expect(identifier.hasPrefix("HKQuantityTypeIdentifier"), "\(identifier)")
            guard let monitored = HealthKitCatalog.type(identifier) else { continue }
            #expect(monitored.kind == .quantity, "\(identifier)")
            #expect(monitored.unit.map { !$0.contains("/") && $0 != "%" } == true, "\(identifier)")
            #expect(HealthKitCatalog.dailyAggregation(of: identifier, hasValues: true) == .sum)
        }
        #expect(HealthKitCatalog.dailyAggregation(of: "HKQuantityTypeIdentifierHeartRate", hasValues: true) == .mean)
        #expect(HealthKitCatalog.displayName(of: "HKQuantityTypeIdentifierHeartRate") == "heart rate")
        #expect(HealthKitCatalog.type("HKQuantityTypeIdentifierStepCount")?.shortName == "StepCount")
    }
}

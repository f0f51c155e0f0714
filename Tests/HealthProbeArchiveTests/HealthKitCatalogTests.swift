import Foundation
import Testing

@testable import HealthProbeArchive

@Suite("HealthKit tables and the live mapping")
struct HealthKitCatalogTests {
    /// A day of UV exposure is a mean of UV indexes, never a sum: Apple documents the type as
    /// discrete, and a sum query of it raises an exception in HealthKit (issue 54).
    @Test func uvExposureIsDiscreteAsAppleDocumentsIt() {
        let uv = "HKQuantityTypeIdentifierUVExposure"
        #expect(!HealthKitCatalog.cumulativeQuantities.contains(uv))
        #expect(HealthKitCatalog.dailyAggregation(of: uv, hasValues: true) == .mean)
        #expect(
            HealthKitCatalog.dailyAggregation(of: "HKQuantityTypeIdentifierTimeInDaylight", hasValues: true) == .sum)
    }

    @Test func workoutActivityTypesAreNamedAsExportsNameThem() {
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 37) == "HKWorkoutActivityTypeRunning")
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 52) == "HKWorkoutActivityTypeWalking")
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 13) == "HKWorkoutActivityTypeCycling")
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 82) == "HKWorkoutActivityTypeSwimBikeRun")
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 3000) == "HKWorkoutActivityTypeOther")
        #expect(HealthKitCatalog.workoutActivityTypeName(rawValue: 81) == "HKWorkoutActivityType81")
    }

    @Test func categoryValuesAreNamedAsExportsNameThem() {
        #expect(
            HealthKitCatalog.categoryValueName(type: "HKCategoryTypeIdentifierSleepAnalysis", rawValue: 4)
                == "HKCategoryValueSleepAnalysisAsleepDeep")
        #expect(HealthKitCatalog.categoryValueName(type: "HKCategoryTypeIdentifierUnknown", rawValue: 2) == "2")
    }

    @Test func aLiveSampleMapsToTheRecordAnExportMakesOfIt() throws {
        let start = 946_713_600.0
        let sample = HealthSample(
            kind: .quantity, type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Test User\u{2019}s Apple Watch",
            sourceVersion: "10.1", device: HealthSample.Device(name: "Apple Watch", manufacturer: "Apple Inc."),
            unit: "count/min", value: 72, startDate: start, endDate: start,
            metadata: ["HKMetadataKeyHeartRateMotionContext": "1"])
        let live = HealthRecord(sample: sample)
        #expect(live.value == "72")
        #expect(live.numericValue == 72)
        #expect(live.device == "name:Apple Watch, manufacturer:Apple Inc.")
        #expect(live.metadataJSON == #"[["HKMetadataKeyHeartRateMotionContext","1"]]"#)
        #expect(live.healthKitUUID == sample.uuid.uuidString)
        let exported = HealthRecord(
            kind: .record, type: sample.type, sourceName: sample.sourceName, sourceVersion: "10.1",
            device: "name:Apple Watch, manufacturer:Apple Inc.", unit: "count/min", value: "72", startDate: start,
            endDate: start, metadataJSON: live.metadataJSON)
        // The same sample: semantic and fuzzy fingerprints agree; each HealthKit object is its own record.
        #expect(RecordFingerprints(live).semantic == RecordFingerprints(exported).semantic)
        #expect(RecordFingerprints(live).fuzzy == RecordFingerprints(exported).fuzzy)
        #expect(RecordFingerprints(live).strict != RecordFingerprints(exported).strict)
        var twin = sample
        twin.uuid = UUID()
        #expect(RecordFingerprints(HealthRecord(sample: twin)).strict != RecordFingerprints(live).strict)
    }

    @Test func sleepMapsToItsExportName() {
        let sample = HealthSample(
            kind: .category, type: "HKCategoryTypeIdentifierSleepAnalysis", sourceName: "Test", value: 5, startDate: 0,
            endDate: 60)
        #expect(HealthRecord(sample: sample).value == "HKCategoryValueSleepAnalysisAsleepREM")
        #expect(HealthRecord(sample: sample).unit == nil)
    }

    @Test func theCatalogHoldsThePhonesCoreTypesEachWithItsKindAndUnit() {
        let types = HealthKitCatalog.types
        #expect((50...70).contains(types.count))
        #expect(Set(types.map(\.identifier)).count == types.count)
        for type in types {
            switch type.kind {
            case .quantity:
                #expect(type.identifier.hasPrefix("HKQuantityTypeIdentifier"), "\(type.identifier)")
                #expect(type.unit?.isEmpty == false, "\(type.identifier) needs a unit")
            case .category:
                #expect(type.identifier.hasPrefix("HKCategoryTypeIdentifier"), "\(type.identifier)")
                #expect(type.unit == nil)
            case .correlation:
                #expect(type.identifier.hasPrefix("HKCorrelationTypeIdentifier"), "\(type.identifier)")
            case .workout:
                #expect(type.identifier == HealthRecord.workoutType)
            case .electrocardiogram:
                #expect(type.identifier == "HKDataTypeIdentifierElectrocardiogram")
            }
        }
        // The groups the exporter guide names are all there.
        for name in [
            "StepCount", "FlightsClimbed", "HeartRate", "RestingHeartRate", "RespiratoryRate", "OxygenSaturation",
            "BodyMass", "BodyFatPercentage", "BloodGlucose", "DietaryEnergyConsumed", "DietaryWater", "SleepAnalysis",
            "MindfulSession", "Workout", "EnvironmentalAudioExposure", "HeadphoneAudioExposure", "VO2Max",
        ] {
            #expect(HealthKitCatalog.monitoredType(named: name) != nil, "\(name)")
        }
        #expect(HealthKitCatalog.type("HKQuantityTypeIdentifierVO2Max")?.unit == "ml/kg*min")
    }

    /// HealthKit authorises and delivers in the background the sample types a correlation holds,
    /// never the correlation type: access is asked for those.
    @Test func correlationsAreAuthorisedAndObservedThroughTheirMembers() {
        let access = HealthKitCatalog.accessTypes(
            for: HealthKitCatalog.defaultMonitoredTypes.map(\.identifier) + ["HKCorrelationTypeIdentifierFood"])
        #expect(!access.contains { $0.hasPrefix("HKCorrelationTypeIdentifier") })
        #expect(access.contains("HKQuantityTypeIdentifierBloodPressureSystolic"))
        #expect(access.contains("HKQuantityTypeIdentifierBloodPressureDiastolic"))
        #expect(access.contains("HKQuantityTypeIdentifierDietaryEnergyConsumed"))
        #expect(access.contains(HealthRecord.workoutType))
        #expect(access == access.sorted() && Set(access).count == access.count)
        #expect(
            HealthKitCatalog.accessTypes(for: ["HKQuantityTypeIdentifierHeartRate"]) == [
                "HKQuantityTypeIdentifierHeartRate"
            ])
    }

    @Test func theDefaultSetStaysSmallAndTheSettingsChooseAmongThemAll() throws {
        #expect(HealthKitCatalog.defaultMonitoredTypes.count == 14)
        // What cannot be measured again is watched from the start.
        #expect(HealthKitCatalog.defaultMonitoredTypes.contains { $0.kind == .electrocardiogram })
        #expect(MonitoringSettings.defaults.monitoredTypes == HealthKitCatalog.defaultMonitoredTypes.map(\.identifier))
        var settings = MonitoringSettings.defaults
        settings.monitoredTypes = ["HKQuantityTypeIdentifierBloodGlucose", "HKCategoryTypeIdentifierMenstrualFlow"]
        #expect(try settings.validated().monitoredTypes.count == 2)
        settings.monitoredTypes = ["HKQuantityTypeIdentifierNotAType"]
        #expect(throws: (any Error).self) { try settings.validated() }
    }

    @Test func newCategoryValuesAreNamedAsExportsNameThem() {
        #expect(
            HealthKitCatalog.categoryValueName(type: "HKCategoryTypeIdentifierMenstrualFlow", rawValue: 3)
                == "HKCategoryValueMenstrualFlowMedium")
        #expect(
            HealthKitCatalog.categoryValueName(type: "HKCategoryTypeIdentifierHighHeartRateEvent", rawValue: 0)
                == "HKCategoryValueNotApplicable")
    }
}

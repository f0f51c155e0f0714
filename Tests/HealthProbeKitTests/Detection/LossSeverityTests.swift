import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A record that vanished with nothing to explain it is a proven loss: a warning however small its
/// share, critical by share, count, age or for what cannot be measured again (docs/DESIGN.md §8).
@Suite("Detectors: severity of a proven loss")
struct LossSeverityTests {
    typealias Export = MiniExport
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// Heart rates on February days `days`, one a day at 08:00 UTC.
    static func heartRates(_ days: some Sequence<Int>) -> [String] {
        days.map { Export.record(start: Export.instant(2, $0, 8, offset: 0)) }
    }

    static func loss(_ found: [[Anomaly]]) throws -> Anomaly {
        try #require(found[1].only(.silentDeletion).first)
    }

    @Test func oneRecordInFiftyIsAWarningNotANote() throws {
        let support = try ArchiveTestSupport()
        let all =
            Self.heartRates(1...25) + Self.heartRates(1...25).map { $0.replacingOccurrences(of: "60", with: "61") }
        let found = try support.audit([Export(elements: all), Export(elements: Array(all.dropFirst()))])
        let loss = try Self.loss(found)
        #expect(loss.recordCount == 1)
        #expect(loss.evidence["lossPercent"] == "2.0")
        #expect(loss.severity == .warning)
        #expect(loss.evidence["severityReason"] == "proven loss")
        #expect(CheckVerdict.text(found[1], howToShow: "").hasPrefix("Needs a look"))
    }

    @Test func aLargeShareIsCritical() throws {
        let support = try ArchiveTestSupport()
        let all = Self.heartRates(1...20)
        let found = try support.audit([Export(elements: all), Export(elements: Array(all.dropFirst(2)))])
        let loss = try Self.loss(found)
        #expect(loss.severity == .critical)
        #expect(loss.evidence["severityReason"] == "more than 5.0% of the type")
    }

    @Test func aRecordOlderThanAYearIsCriticalHoweverFew() throws {
        let support = try ArchiveTestSupport()
        let old = Export.record(start: "1998-06-01 08:00:00 +0000")
        let all =
            Self.heartRates(1...28) + Self.heartRates(1...28).map { $0.replacingOccurrences(of: "60", with: "62") }
        let found = try support.audit([Export(elements: all + [old]), Export(elements: all)])
        let loss = try Self.loss(found)
        #expect(loss.severity == .critical)
        #expect(loss.evidence["severityReason"] == "older than 365 days")
    }

    @Test func aWorkoutCannotBeMeasuredAgain() throws {
        let support = try ArchiveTestSupport()
        let workout = """
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="\(Export.watch)" sourceVersion="10.1" creationDate="2000-02-01 09:00:00 +0000" \
            startDate="2000-02-01 08:30:00 +0000" endDate="2000-02-01 09:00:00 +0000"/>
            """
        let kept = Self.heartRates(1...28)
        let found = try support.audit([Export(elements: kept + [workout]), Export(elements: kept)])
        let loss = try Self.loss(found)
        #expect(loss.sampleType == HealthRecord.workoutType)
        #expect(loss.severity == .critical)
        #expect(loss.evidence["severityReason"]?.contains("cannot be measured again") == true)
    }

    @Test func theLimitsAreSettingsPerType() throws {
        var thresholds = Thresholds()
        #expect(thresholds.isIrreplaceable("HKClinicalTypeIdentifierLabResultRecord"))
        #expect(thresholds.isIrreplaceable("Procedure", kinds: [.clinicalRecord]))
        #expect(!thresholds.isIrreplaceable(Self.heartRate, kinds: [.record]))
        thresholds.irreplaceableTypePrefixes.append(Self.heartRate)
        #expect(thresholds.isIrreplaceable(Self.heartRate))
    }
}

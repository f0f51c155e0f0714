import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive

@Suite("Divergence: a daily series departing from its baseline")
struct DivergenceTests {
    static let engine = DivergenceEngine(sigmaRatioLimit: 3, minimumRelativeSigma: 0.05, levelShiftLimit: 0.5)
    static let baseline: [Double] = (0..<28).map { 10_000 + Double(($0 * 7919) % 1_000) - 500 }

    @Test func aSteadySeriesDoesNotDiverge() throws {
        let result = try #require(Self.engine.evaluate(baseline: Self.baseline, recent: Array(Self.baseline.prefix(7))))
        #expect(!result.fired)
    }

    @Test func aStepDownFiresBothTests() throws {
        let result = try #require(
            Self.engine.evaluate(baseline: Self.baseline, recent: Array(repeating: 2_000, count: 7)))
        #expect(result.sigmaRatioFired)
        #expect(result.levelShiftFired)
        #expect(result.shift < -0.7)
    }

    @Test func oneOddDayIsNoLevelShift() throws {
        let recent = [10_000, 10_100, 9_900, 60_000, 10_050, 9_950, 10_000.0]
        let result = try #require(Self.engine.evaluate(baseline: Self.baseline, recent: recent))
        #expect(!result.levelShiftFired)
    }

    @Test func aFlatBaselineNeedsMoreThanAWobble() throws {
        let flat = Array(repeating: 1.0, count: 28)
        #expect(Self.engine.evaluate(baseline: flat, recent: [1, 1, 1.04, 1, 0.98, 1, 1])?.fired == false)
        #expect(Self.engine.evaluate(baseline: [1], recent: [1]) == nil)
    }

    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// 41 days of data, 288 items a day; the export's day is day 42.
    static func export(stepsStopAfterDay day: Int?) -> SyntheticExportOptions {
        var options = SyntheticExportOptions(elementCount: 12_000, seed: 5, spacingSeconds: 300)
        if let day { options.incidents = [SyntheticIncident(.omit, items: (day * 288)..<12_000, sampleType: steps)] }
        return options
    }

    @Test func stepsStoppingInTheLastWeekIsAWarningOnce() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let stopped = try support.generate("stopped.zip", Self.export(stepsStopAfterDay: 35))
        let first = try support.check(stopped, in: store).audit.anomalies
        #expect(first.summaries == ["divergence \(Self.steps) 7"])
        let divergence = try #require(first.first)
        #expect(divergence.severity == .warning)
        #expect(divergence.evidence["direction"] == "down")
        #expect(divergence.evidence["recentWindow"] == "2000-02-05 – 2000-02-11")
        #expect(divergence.evidence["aggregation"] == "total")
        // Still open: the next check does not report it again; once resolved, it does.
        #expect(try support.check(stopped, in: store).audit.anomalies.isEmpty)
        _ = try store.resolveAnomalies(ids: [divergence.id])
        #expect(try support.check(stopped, in: store).audit.anomalies.summaries == ["divergence \(Self.steps) 7"])
    }

    @Test func aSteadyExportHasNoDivergence() throws {
        let support = try ArchiveTestSupport()
        let audit = try support.check(
            try support.generate("steady.zip", Self.export(stepsStopAfterDay: nil)), in: try support.openArchive()
        ).audit
        #expect(audit.anomalies.isEmpty, "\(audit.anomalies.summaries)")
        #expect(audit.notes.isEmpty)
    }

    @Test func tooLittleHistoryIsSaidNotJudged() throws {
        let support = try ArchiveTestSupport()
        var short = Self.export(stepsStopAfterDay: nil)
        short.elementCount = 288 * 10
        let audit = try support.check(try support.generate("short.zip", short), in: try support.openArchive()).audit
        #expect(audit.anomalies.isEmpty)
        #expect(audit.notes.count == 1)
        #expect(audit.notes.first?.hasPrefix("divergence not tested for ") == true)
    }

    /// Water logged from 2000-02-23, at midnight local time (UTC+2) each day, after one glass in
    /// January (and, given, one on 2000-02-10): judged on local days, the first glass is in the
    /// recent window, so the type started being recorded; a percentage from nothing is never said.
    static func waterExport(glassOnTheTenth: Bool) -> String {
        let glass = { (day: String) in
            """
             <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="Test App" unit="mL" \
            creationDate="\(day) 00:00:00 +0200" startDate="\(day) 00:00:00 +0200" endDate="\(day) 00:00:00 +0200" \
            value="250"/>

            """
        }
        let days = ["2000-01-01"] + (glassOnTheTenth ? ["2000-02-10"] : []) + (23...29).map { "2000-02-\($0)" }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2000-03-01 12:00:00 +0200"/>
             <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
            \(days.map(glass).joined())</HealthData>

            """
    }

    @Test(arguments: [false, true])
    func loggingFromNothingStartedOnLocalDays(glassOnTheTenth: Bool) throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        try store.setDayZone(TimeZone(identifier: "Etc/GMT-2"))
        let url = support.folder.appendingPathComponent("export.xml")
        try Self.waterExport(glassOnTheTenth: glassOnTheTenth).write(to: url, atomically: true, encoding: .utf8)
        let anomalies = try support.check(url, in: store).audit.anomalies
        let divergence = try #require(anomalies.first, "\(anomalies.summaries)")
        #expect(anomalies.count == 1)
        #expect(divergence.evidence["recentWindow"] == "2000-02-23 – 2000-02-29")
        #expect(
            divergence.summary
                == "dietary water started being recorded: on 7 of the 7 days over 2000-02-23 – 2000-02-29, "
                + (glassOnTheTenth ? "on 1 of the 28 days before" : "none in the 28 days before"))
        #expect(divergence.severity == .info)
    }
}

import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive

/// Three successive exports made with the generator, with troubles scripted into them; the
/// audit must report exactly those, record for record, and nothing else.
@Suite("Audit: a scripted three-export scenario")
struct AuditScenarioTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    // Items are 5 minutes apart: 288 a day. Every trouble lies weeks before the export dates.
    static let backfill = 1_000..<1_600
    static let loss = 3_000..<4_500
    static let writerBug = 5_000..<5_300
    static let rewrite = 6_000..<6_200
    static let overlap = 7_000..<7_300

    static func options(items: Int, offsetHours: Int, deviceSeed: UInt64, _ incidents: [SyntheticIncident])
        -> SyntheticExportOptions
    {
        var options = SyntheticExportOptions(
            elementCount: items, seed: 11, utcOffsetSeconds: offsetHours * 3600, deviceAddressSeed: deviceSeed,
            spacingSeconds: 300)
        options.incidents = incidents
        return options
    }

    static let backfilledLater = SyntheticIncident(.omit, items: backfill, sampleType: activeEnergy)

    /// First: everything but the samples an app will backfill later.
    static let first = options(items: 12_000, offsetHours: 0, deviceSeed: 1, [backfilledLater])
    /// Second, at −0700: sleep lost, a writer bug triples steps, heart rates rewritten.
    static let second = options(
        items: 13_000, offsetHours: -7, deviceSeed: 2,
        [
            backfilledLater, SyntheticIncident(.omit, items: loss, sampleType: sleep),
            SyntheticIncident(.duplicate(copies: 3), items: writerBug, sampleType: steps),
            SyntheticIncident(.rewriteValue, items: rewrite, sampleType: heartRate),
        ])
    /// Third, at +0900: the backfill arrives, the lost sleep comes back, the triples and
    /// rewrites stay as they were, and the iPhone also writes some of the Watch's steps.
    static let third = options(
        items: 14_000, offsetHours: 9, deviceSeed: 3,
        [
            SyntheticIncident(.duplicate(copies: 3), items: writerBug, sampleType: steps),
            SyntheticIncident(.rewriteValue, items: rewrite, sampleType: heartRate),
            SyntheticIncident(.crossSourceCopy, items: overlap, sampleType: steps),
        ])

    static func count(_ type: String, in items: Range<Int>) -> Int {
        SyntheticExportGenerator(options: first).sampleTypes(ofItems: items).filter { $0 == type }.count
    }

    struct Expected: Hashable, CustomStringConvertible {
        var type: AnomalyType
        var sampleType: String
        var recordCount: Int
        var description: String { "\(type.rawValue) \(sampleType) \(recordCount)" }
    }

    static func found(_ anomalies: [Anomaly]) -> Set<Expected> {
        Set(anomalies.map { Expected(type: $0.type, sampleType: $0.sampleType, recordCount: $0.recordCount) })
    }

    @Test func eachTroubleIsReportedOnceAndNothingElse() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let results = try [Self.first, Self.second, Self.third].enumerated().map { index, options in
            try support.check(try support.generate("export\(index + 1).zip", options), in: store)
        }

        #expect(results[0].audit.anomalies.isEmpty, "\(results[0].audit.anomalies.map(\.summary))")

        let second = Self.found(results[1].audit.anomalies)
        #expect(
            second == [
                Expected(
                    type: .silentDeletion, sampleType: Self.sleep, recordCount: Self.count(Self.sleep, in: Self.loss)),
                Expected(
                    type: .duplicate, sampleType: Self.steps,
                    recordCount: 2 * Self.count(Self.steps, in: Self.writerBug)),
                Expected(
                    type: .valueModified, sampleType: Self.heartRate,
                    recordCount: Self.count(Self.heartRate, in: Self.rewrite)),
            ], "\(results[1].audit.anomalies.map(\.summary))")

        let third = Self.found(results[2].audit.anomalies)
        #expect(
            third == [
                Expected(
                    type: .historicalInsertion, sampleType: Self.activeEnergy,
                    recordCount: Self.count(Self.activeEnergy, in: Self.backfill)),
                Expected(
                    type: .sourceOverlap, sampleType: Self.steps, recordCount: Self.count(Self.steps, in: Self.overlap)),
            ], "\(results[2].audit.anomalies.map(\.summary))")
    }

    @Test func severitiesAndEvidenceSayWhatHappened() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(try support.generate("1.zip", Self.first), in: store)
        let second = try support.check(try support.generate("2.zip", Self.second), in: store).audit.anomalies
        let loss = try #require(second.first { $0.type == .silentDeletion })
        // About a tenth of all sleep records went: more than 10 % is critical.
        #expect(loss.severity == .critical)
        #expect(loss.evidence["masked"] == "false")
        // What was there, less what vanished, plus the sleep of the days since the first export.
        #expect(
            loss.evidence["previousCount"].flatMap(Int.init)! - loss.recordCount
                + Self.count(Self.sleep, in: 12_000..<13_000) == loss.evidence["currentCount"].flatMap(Int.init)!)
        #expect(loss.evidence["sources"]?.hasPrefix("Test User\u{2019}s Apple Watch: ") == true)
        #expect(loss.evidence["dateRange"] == "2000-01-11 – 2000-01-16")
        // Three copies of a sample: information (a storm of ten or more would be a warning).
        #expect(second.first { $0.type == .duplicate }?.severity == .info)
        #expect(second.first { $0.type == .valueModified }?.severity == .warning)

        let linked = try store.fetchAnomalyRecords(id: loss.id, limit: 10_000)
        #expect(linked.total == loss.recordCount)
        #expect(linked.records.allSatisfy { $0.role == "vanished" && $0.type == Self.sleep })
        // A changed value reads as its pair: each record before its change, then after it.
        let modified = try #require(second.first { $0.type == .valueModified })
        let pairs = try store.fetchAnomalyRecords(id: modified.id, limit: 10_000).records
        #expect(pairs.count == 2 * modified.recordCount && !pairs.isEmpty)
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            #expect(pairs[index].role == "before" && pairs[index + 1].role == "after")
            #expect(pairs[index].startDate == pairs[index + 1].startDate)
        }
        let goneReasons = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT goneReason FROM record WHERE goneCapture = 2 ORDER BY 1")
        }
        #expect(goneReasons == ["absent", "modified"])
    }
}

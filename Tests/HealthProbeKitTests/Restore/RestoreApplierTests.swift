import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A restore file written into the simulated store as HealthKit takes an app's writes: once, by
/// its sync identifiers; only types apps may write, and only those the person allowed.
@Suite("Restore: writing back into Health")
struct RestoreApplierTests {
    /// The restore file of a generated export that lost every 25th item.
    static func lostFile() throws -> RestoreFile {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        for omit in [0, 25] {
            let export = try support.generate(
                "export-\(omit).xml", SyntheticExportOptions(elementCount: 3_000, seed: 4, omitEveryNth: omit))
            _ = try support.check(export, in: store)
        }
        return RestoreFile(try store.lostRecords(capture: 2))
    }

    @Test func eachRecordIsWrittenOnceAsHealthProbesWithWhereItCameFrom() async throws {
        let file = try Self.lostFile()
        #expect(file.records.count > 100)
        let store = SimulatedHealthStore()
        let first = try await RestoreApplier(file).apply(to: store)
        #expect(first.written == file.records.count && first.failed == 0 && first.refused.isEmpty, "\(first)")
        let restored = await store.everySample()
        #expect(restored.count == file.records.count)
        let archived = Dictionary(uniqueKeysWithValues: file.records.map { ($0.restoreIdentifier, $0) })
        for sample in restored {
            let record = try #require(archived[sample.syncIdentifier ?? ""])
            #expect(sample.sourceName == "HealthProbe" && sample.syncVersion == 1)
            #expect(sample.metadata[RestoreApplier.Key.originalSource] == record.sourceName)
            #expect(sample.metadata[RestoreApplier.Key.originalDevice] == record.device)
            #expect(sample.metadata[RestoreApplier.Key.originalCreationDate] == record.creationDate)
            #expect(UTCText.iso8601(seconds: sample.startDate) == record.startDate)
            #expect(sample.value == record.value || record.categoryValue != nil)
            #expect(sample.metadata["HKWasUserEntered"] == nil)
        }
        let sleep = restored.filter { $0.type == "HKCategoryTypeIdentifierSleepAnalysis" }
        #expect(!sleep.isEmpty && sleep.allSatisfy { $0.kind == HealthSample.Kind.category && $0.value != nil })

        // Again: HealthKit refuses an equal sync version, so nothing is added.
        let second = try await RestoreApplier(file).apply(to: store)
        #expect(second.written == 0 && second.alreadyThere == file.records.count)
        #expect(await store.everySample().count == file.records.count)
    }

    @Test func typesHealthKeepsAreListedNeverAskedAndRefusedTypesAreCounted() async throws {
        var file = try Self.lostFile()
        var computed = try #require(file.records.first { $0.type == "HKQuantityTypeIdentifierHeartRate" })
        computed.type = "HKQuantityTypeIdentifierWalkingHeartRateAverage"
        computed.restoreIdentifier = "HealthProbe-walking-0"
        file.records.append(computed)
        let store = SimulatedHealthStore()
        await store.answerWriteRequests(allowing: ["HKQuantityTypeIdentifierStepCount"])
        let outcome = try await RestoreApplier(file).apply(to: store)
        #expect(outcome.notWritable == ["HKQuantityTypeIdentifierWalkingHeartRateAverage": 1])
        #expect(!(await store.writeTypesAsked).contains("HKQuantityTypeIdentifierWalkingHeartRateAverage"))
        let steps = file.records.filter { $0.type == "HKQuantityTypeIdentifierStepCount" }.count
        #expect(outcome.written == steps)
        #expect(
            outcome.refused["HKQuantityTypeIdentifierHeartRate"]
                == file.records.filter {
                    $0.type == "HKQuantityTypeIdentifierHeartRate"
                }.count)
        #expect(HealthKitWriting.verdict(for: HealthKitCatalog.electrocardiogramType) != .writable)
        #expect(HealthKitWriting.verdict(for: "HKQuantityTypeIdentifierMadeUp") == .unknown)
    }

    @Test func aCancelledRestoreKeepsWhatItWroteAndTheNextFinishesIt() async throws {
        let file = try Self.lostFile()
        let store = SimulatedHealthStore()
        let done = Counter()
        let stopped = try await RestoreApplier(file).apply(
            to: store, progress: { finished, _ in done.set(finished) }, isCancelled: { done.value >= 40 })
        #expect(stopped.cancelled && stopped.written == 40)
        let rest = try await RestoreApplier(file).apply(to: store)
        #expect(!rest.cancelled && rest.written == file.records.count - 40 && rest.alreadyThere == 40)
    }
}

/// A count shared with the progress callback.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    var value: Int { lock.withLock { current } }
    func set(_ value: Int) { lock.withLock { current = value } }
}

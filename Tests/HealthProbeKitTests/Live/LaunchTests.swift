import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The phone's launch: observers started from a plan kept beside the archive before the archive
/// opens, and an archive that failed to open tried again on the next use instead of never.
@Suite("Live checks: the phone's launch")
struct LaunchTests {
    struct Refused: Error, Equatable {}

    @MainActor
    final class Opener {
        var failuresLeft: Int
        var calls = 0

        init(failures: Int) { failuresLeft = failures }

        func open() async throws -> String {
            calls += 1
            try await Task.sleep(for: .milliseconds(20))
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw Refused()
            }
            return "archive"
        }
    }

    @MainActor
    @Test func aFailedOpeningIsTriedAgainOnTheNextUseAndASuccessIsKept() async throws {
        let opener = Opener(failures: 1)
        let attempt = RetryingAttempt { try await opener.open() }
        // Two callers at once (a wake and the window) share the first attempt, and both hear it failed.
        async let first: String? = try? attempt.value()
        async let second: String? = try? attempt.value()
        let (one, two) = await (first, second)
        #expect(one == nil && two == nil)
        #expect(opener.calls == 1)
        #expect(attempt.lastFailure is Refused)
        // The next use tries again, and succeeds; after that, nothing is opened again.
        #expect(try await attempt.value() == "archive")
        #expect(try await attempt.value() == "archive")
        #expect(opener.calls == 2)
        #expect(attempt.attempts == 2)
        #expect(attempt.lastFailure == nil)
    }

    @Test func thePlanIsTheDefaultsUntilWrittenThenWhatWasWritten() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let file = folder.appendingPathComponent("observers.json")
        #expect(ObserverPlan.read(from: file) == ObserverPlan(.defaults))
        #expect(ObserverPlan(.defaults).hourly == false)

        var settings = MonitoringSettings.defaults
        settings.checkFrequency = .every2Hours
        settings.monitoredTypes = ["HKQuantityTypeIdentifierStepCount", "HKCategoryTypeIdentifierSleepAnalysis"]
        let plan = ObserverPlan(settings)
        #expect(plan.hourly)
        try plan.write(to: file)
        #expect(ObserverPlan.read(from: file) == plan)
        // Written whole: nothing beside the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["observers.json"])
    }

    @Test func anUnreadablePlanOrOneOfUnknownTypesIsTheDefaults() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let file = folder.appendingPathComponent("observers.json")
        try Data("{\"types\": [\"HKQuantityTypeId".utf8).write(to: file)
        #expect(ObserverPlan.read(from: file) == ObserverPlan(.defaults))
        try Data("{\"types\": [\"HKQuantityTypeIdentifierNoSuchType\"], \"hourly\": true}".utf8).write(to: file)
        #expect(ObserverPlan.read(from: file) == ObserverPlan(.defaults))
        let mixed = ObserverPlan(
            types: ["HKQuantityTypeIdentifierNoSuchType", "HKQuantityTypeIdentifierHeartRate"], hourly: true)
        #expect(mixed.types == ["HKQuantityTypeIdentifierHeartRate"])
    }
}

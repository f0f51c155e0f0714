import Foundation
import TestSupport
import Testing

/// `healthprobe demo`: no set-up, a story or JSON, nothing left behind.
@Suite("Demo command")
struct DemoCommandTests {
    /// Runs the demo in a fresh folder, which must stay empty.
    /// Its temporary archive goes to a `TMPDIR` of its own, which must be empty afterwards too.
    static func runInEmptyFolder(_ arguments: [String]) throws -> (CommandRunner.Outcome, URL) {
        let folder = try FixtureFiles.temporaryFolder()
        let temporary = try FixtureFiles.temporaryFolder()
        let outcome = try CommandRunner.run(["demo"] + arguments, environment: ["TMPDIR": temporary.path], in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        return (outcome, folder)
    }

    @Test func jsonHoldsTheIncidentsFoundAndNoAnomalyForTheExplicitDeletion() throws {
        let (outcome, folder) = try Self.runInEmptyFolder(["--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.seconds < 30)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.count >= 30)
        let anomalies = checks.flatMap { $0["anomalies"] as? [[String: Any]] ?? [] }
        let types = Set(anomalies.compactMap { $0["type"] as? String })
        for type in ["silent_deletion", "historical_insertion", "duplicate"] {
            #expect(types.contains(type), "no \(type) in \(types)")
        }
        for check in checks where check["kind"] as? String == "completed" {
            #expect((check["capture"] as? [String: Any])?["id"] != nil)
        }
        // The day the user deleted heart rate: the deletion is counted, nothing is reported.
        let deletionDay = try #require(checks.first { ($0["explicitDeletions"] as? Int ?? 0) > 0 })
        #expect((deletionDay["anomalies"] as? [Any])?.isEmpty == true)
        // The heart rate lost in the bad iCloud sync is the only heart-rate loss reported.
        let heartRateLosses = anomalies.filter {
            $0["type"] as? String == "silent_deletion"
                && $0["sampleType"] as? String == "HKQuantityTypeIdentifierHeartRate"
        }
        #expect(heartRateLosses.count == 1)
        #expect(checks.contains { $0["kind"] as? String == "deferred" })
        #expect(
            checks.contains {
                $0["statusMessage"] as? String == "Health access is off: enable it in Settings > Privacy > Health"
            })
    }

    @Test func theStoryNarratesWhatHappenedAndWhatWasFound() throws {
        let (outcome, _) = try Self.runInEmptyFolder(["--days", "15"])
        #expect(outcome.status == 0)
        for part in [
            "A fitness app's bug saved", "info duplicate:", "You deleted a day of heart rate",
            "critical silent_deletion:", "The demo's archive was temporary",
        ] {
            #expect(outcome.stdout.contains(part), "no \(part)")
        }
        #expect(!outcome.stdout.contains("Day 16"))
    }

    @Test func keepLeavesAnArchiveTheOtherCommandsRead() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let kept = folder.appendingPathComponent("demo.sqlite").path
        let outcome = try CommandRunner.run(["demo", "--days", "15", "--keep", kept])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("The archive is kept at \(kept)"))
        // The heart-rate loss the demo puts back is no longer open; every anomaly lists it restored.
        let open = try CommandRunner.run(["anomalies", "--json", "--archive", kept])
        let openList = try #require(try JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as? [[String: Any]])
        #expect(!openList.contains { $0["type"] as? String == "silent_deletion" })
        let anomalies = try CommandRunner.run(["anomalies", "--all", "--json", "--archive", kept])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(anomalies.stdout.utf8)) as? [[String: Any]])
        let loss = try #require(list.first { $0["type"] as? String == "silent_deletion" })
        #expect(loss["restoredCount"] as? Int == 240 && loss["restoredAt"] != nil, "\(loss)")
    }

    @Test func nonsenseOptionsAreUsageErrors() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let existing = try FixtureFiles.write("notes\n", named: "existing.sqlite", in: folder)
        for arguments in [
            ["--days", "0"], ["--days", "-3"], ["--days", "many"], ["--keep", "/nonexistent-folder/demo.sqlite"],
            ["--keep", existing.path],
        ] {
            let outcome = try CommandRunner.run(["demo"] + arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.isEmpty)
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "notes\n")
    }
}

import Foundation
import TestSupport
import Testing

/// The command-line contract of docs/DESIGN.md §9, as scripts see it.
@Suite("Command-line contract")
struct CommandContractTests {
    @Test func checkJSONHasTheCaptureAndAnAnomalyList() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("a.sqlite").path
        let outcome = try CommandRunner.run([
            "check", FixtureFiles.url("tdda/export6s3sample.xml").path, "--archive", archive, "--json",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let capture = try #require(object["capture"] as? [String: Any])
        for key in ["id", "exportDate", "records", "new", "gone", "unchanged", "unreadable"] {
            #expect(capture[key] != nil, "capture has no \(key)")
        }
        #expect(capture["records"] as? Int == 18)
        #expect((capture["new"] as? Int ?? 0) + (capture["unchanged"] as? Int ?? 0) == 18)
        #expect((object["anomalies"] as? [Any])?.isEmpty == true)
    }

    @Test func archiveComesFromTheEnvironmentWhenNotGiven() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("from-env.sqlite").path
        let outcome = try CommandRunner.run(
            ["check", FixtureFiles.url("dogsheep/export.xml").path], environment: ["HEALTHPROBE_ARCHIVE": archive])
        #expect(outcome.status == 0)
        #expect(FileManager.default.fileExists(atPath: archive))
        let captures = try CommandRunner.run(["captures", "--json"], environment: ["HEALTHPROBE_ARCHIVE": archive])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(captures.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
    }

    @Test func statusReportsTypesAndNoVerificationItDidNotRun() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("a.sqlite").path
        _ = try CommandRunner.run(["check", FixtureFiles.url("dogsheep/export.xml").path, "--archive", archive])
        let outcome = try CommandRunner.run(["status", "--archive", archive, "--json"])
        let status = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(status["integrity"] == nil, "status verified the archive, or claims it was")
        let types = try #require(status["types"] as? [[String: Any]])
        #expect(types.contains { $0["type"] as? String == "HKWorkoutTypeIdentifier" })
        #expect(
            types.contains { $0["type"] as? String == "HKActivitySummaryTypeIdentifier" && $0["count"] as? Int == 2 })
    }

    @Test func badUsageExits64() throws {
        #expect(try CommandRunner.run(["check"]).status == 64)
        #expect(try CommandRunner.run(["check", "x.zip", "--fail-on", "sometimes"]).status == 64)
        #expect(try CommandRunner.run(["generate", "/tmp/x.zip", "--records", "0"]).status == 64)
    }

    @Test func archiveThatIsNotOursIsRefusedUntouched() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let notOurs = try FixtureFiles.write("just some notes\n", named: "notes.sqlite", in: folder)
        let outcome = try CommandRunner.run([
            "check", FixtureFiles.url("dogsheep/export.xml").path, "--archive", notOurs.path,
        ])
        #expect(outcome.status == 74)
        #expect(outcome.stderr.contains("not a HealthProbe archive"))
        #expect(try String(contentsOf: notOurs, encoding: .utf8) == "just some notes\n")
    }
}

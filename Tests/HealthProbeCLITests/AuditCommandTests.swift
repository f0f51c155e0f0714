import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The audit's commands as a user and a script meet them: anomalies, show, resolve, audit and
/// `check --fail-on`.
@Suite("Audit commands")
struct AuditCommandTests {
    /// An archive holding two checks: the second lost 2 % of the records — proven losses, so
    /// warnings, none large enough to be critical.
    struct Checked {
        let folder: URL
        let archive: String
        let second: CommandRunner.Outcome

        init(failOn: String? = nil) throws {
            folder = try FixtureFiles.temporaryFolder()
            archive = folder.appendingPathComponent("archive.sqlite").path
            var options = SyntheticExportOptions(elementCount: 2_000, seed: 3)
            let first = folder.appendingPathComponent("first.zip")
            try SyntheticExportGenerator(options: options).writeZip(to: first)
            options.omitEveryNth = 50
            options.utcOffsetSeconds = 3600
            let second = folder.appendingPathComponent("second.zip")
            try SyntheticExportGenerator(options: options).writeZip(to: second)
            #expect(try CommandRunner.run(["check", first.path, "--archive", archive]).status == 0)
            self.second = try CommandRunner.run(
                ["check", second.path, "--archive", archive] + (failOn.map { ["--fail-on", $0] } ?? []))
        }

        func run(_ arguments: [String]) throws -> CommandRunner.Outcome {
            try CommandRunner.run(arguments + ["--archive", archive])
        }

        func anomalies(_ arguments: [String] = []) throws -> [[String: Any]] {
            let outcome = try run(["anomalies", "--json"] + arguments)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        }
    }

    @Test func checkListsTheAnomaliesAndEndsWithAVerdict() throws {
        let checked = try Checked()
        #expect(checked.second.status == 0)
        #expect(checked.second.stdout.contains("silent_deletion"))
        let last = checked.second.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("Verdict: needs a look: silent deletion of "), "\(last)")
    }

    @Test func failOnExitsThreeOnlyAtOrAboveTheSeverity() throws {
        #expect(try Checked(failOn: "critical").second.status == 0)
        // A nightly job asking to hear of warnings hears of a 2 % loss.
        let failing = try Checked(failOn: "warning").second
        #expect(failing.status == 3)
        #expect(failing.stdout.contains("Verdict:"))
    }

    @Test func anomaliesJSONFollowsTheContractAndFilters() throws {
        let checked = try Checked()
        let all = try checked.anomalies()
        #expect(all.count >= 5)
        for anomaly in all {
            for key in [
                "id", "captureId", "detectedAt", "type", "severity", "sampleType", "summary", "recordCount", "evidence",
                "resolved",
            ] {
                #expect(anomaly[key] != nil, "no \(key)")
            }
            #expect((anomaly["detectedAt"] as? String)?.hasSuffix("Z") == true)
            #expect(anomaly["evidence"] is [String: String])
        }
        #expect(try checked.anomalies(["--severity", "critical"]).isEmpty)
        #expect(try checked.anomalies(["--severity", "warning"]).count == all.count)
        #expect(try checked.anomalies(["--type", "silent_deletion"]).count == all.count)
        #expect(try checked.anomalies(["--type", "duplicate"]).isEmpty)
        let status = try checked.run(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect((object["openAnomalies"] as? [String: Int])?["warning"] == all.count)
        #expect(try checked.run(["anomalies", "--type", "nonsense"]).status == 64)
    }

    @Test func resolvedAnomaliesLeaveTheListAndStayInTheArchive() throws {
        let checked = try Checked()
        let all = try checked.anomalies()
        let id = try #require(all.first?["id"] as? Int)
        let resolved = try checked.run(["resolve", String(id)])
        #expect(resolved.status == 0)
        #expect(resolved.stdout.hasPrefix("Resolved #\(id)"))
        #expect(try checked.anomalies().count == all.count - 1)
        let withResolved = try checked.anomalies(["--all"])
        #expect(withResolved.count == all.count)
        #expect(withResolved.first { $0["id"] as? Int == id }?["resolved"] as? Bool == true)
        let trail = try checked.run(["audit", "--json"])
        let events = try #require(try JSONSerialization.jsonObject(with: Data(trail.stdout.utf8)) as? [[String: Any]])
            .compactMap { $0["event"] as? String }
        for event in [
            "archiveCreated", "archiveOpened", "captureStarted", "captureCompleted", "anomaliesDetected",
            "anomalyResolved",
        ] {
            #expect(events.contains(event), "no \(event) in the audit trail")
        }
    }

    @Test func showGivesAMarkdownReportWithValuesOnlyWhenAsked() throws {
        let checked = try Checked()
        let heartRate = try #require(
            try checked.anomalies().first { $0["sampleType"] as? String == "HKQuantityTypeIdentifierHeartRate" })
        let id = String(try #require(heartRate["id"] as? Int))
        let report = try checked.run(["show", id, "--format", "markdown"])
        #expect(report.status == 0)
        for part in ["## HealthProbe anomaly #\(id)", "**What:**", "### Evidence", "### Affected days", "| vanished |"]
        {
            #expect(report.stdout.contains(part), "no \(part)")
        }
        #expect(report.stdout.contains("withheld"))
        #expect(!report.stdout.contains("count/min"))
        let withValues = try checked.run(["show", id, "--format", "markdown", "--include-values"])
        #expect(withValues.stdout.contains("count/min"))
        #expect(!withValues.stdout.contains("withheld"))
        let json = try checked.run(["show", id, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["anomaly"] as? [String: Any])?["id"] as? Int == Int(id))
    }

    @Test func unknownIDsAreRefusedAndNothingIsWritten() throws {
        let checked = try Checked()
        let before = try ArchiveInspection.digest(checked.archive)
        for arguments in [["show", "9999"], ["resolve", "1", "9999"]] {
            let outcome = try checked.run(arguments)
            #expect(outcome.status == 64)
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stderr.contains("no anomaly with id 9999"))
        }
        #expect(try ArchiveInspection.digest(checked.archive) == before)
    }

    @Test func archivesThatCannotBeReadAreRefusedUntouched() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let notOurs = try FixtureFiles.write("just some notes\n", named: "notes.sqlite", in: folder)
        let missing = folder.appendingPathComponent("missing.sqlite").path
        for command in ["anomalies", "audit", "captures", "status"] {
            let foreign = try CommandRunner.run([command, "--archive", notOurs.path])
            #expect(foreign.status == 74)
            #expect(foreign.stderr.contains("not a HealthProbe archive"))
            let absent = try CommandRunner.run([command, "--archive", missing])
            #expect(absent.status == 74)
            #expect(absent.stderr.contains("no archive at"))
        }
        #expect(try String(contentsOf: notOurs, encoding: .utf8) == "just some notes\n")
        #expect(!FileManager.default.fileExists(atPath: missing))

        let checked = try Checked()
        let queue = try ArchiveStore.open(at: checked.archive).writer
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future')")
        }
        let before = try ArchiveInspection.digest(checked.archive)
        for arguments in [["anomalies"], ["resolve", "1"], ["show", "1"]] {
            let newer = try checked.run(arguments)
            #expect(newer.status == 74)
            #expect(newer.stderr.contains("newer HealthProbe"))
        }
        #expect(try ArchiveInspection.digest(checked.archive) == before)
    }
}

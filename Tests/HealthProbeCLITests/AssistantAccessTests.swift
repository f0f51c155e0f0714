import Foundation
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing

/// `healthprobe mcp` asked through the official Python MCP SDK (provisioned at first use: `PythonTool`), as an
/// assistant would: every tool answers from the archive, read-only, without a single record's
/// value unless revealed, and each question is noted in the audit trail without its arguments.
@Suite("Assistant access (MCP)")
struct AssistantAccessTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/mcp-client-check.py").standardized.path

    /// The demo's month (captures, duplicates, a silent loss) in an archive of its own.
    static func demoArchive() throws -> (folder: URL, archive: String) {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let demo = try CommandRunner.run(["demo", "--keep", archive])
        #expect(demo.status == 0, "\(demo.stderr)")
        return (folder, archive)
    }

    static func ask(_ archive: String, _ calls: [[String: Any]], reveal: Bool = false, in folder: URL) throws
        -> [String: Any]
    {
        let file = folder.appendingPathComponent("calls-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: calls).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try PythonTool.mcpClient.python())
        process.arguments =
            [client, CommandRunner.executable.path, archive] + (reveal ? ["--reveal-values"] : []) + [
                file.path
            ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(problems)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func calls(_ answer: [String: Any]) -> [[String: Any]] {
        answer["calls"] as? [[String: Any]] ?? []
    }

    @Test func everyToolAnswersFromTheArchiveAndChangesNothingButTheTrail() throws {
        let (folder, archive) = try Self.demoArchive()
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        let answer = try Self.ask(
            archive,
            [
                ["tool": "archive_status"], ["tool": "list_anomalies", "arguments": ["severity": "warning"]],
                ["tool": "get_anomaly", "arguments": ["id": 1]], ["tool": "list_captures"],
                ["tool": "compare_captures", "arguments": ["from_capture": 1, "to_capture": 2]],
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "HeartRate", "from": "2000-03-01", "to": "2000-03-05"],
                ],
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "StepCount", "from": "2000-03-03", "to": "2000-03-03"],
                ],
                [
                    "tool": "coverage",
                    "arguments": ["sample_type": "StepCount", "from": "2000-03-01", "to": "2000-03-31"],
                ],
                [
                    "tool": "get_records",
                    "arguments": ["sample_type": heartRate, "from": "2000-03-01", "to": "2000-03-01"],
                ],
                [
                    "tool": "get_records",
                    "arguments": ["sample_type": "NoSuchType", "from": "2000-03-01", "to": "2000-03-01"],
                ],
            ], in: folder)
        let tools = try #require(answer["tools"] as? [String: [String: Any]])
        #expect(
            Set(tools.keys) == [
                "archive_status", "list_anomalies", "get_anomaly", "list_captures", "compare_captures", "daily_summary",
                "coverage", "get_records",
            ])
        #expect(tools.values.allSatisfy { $0["readOnly"] as? Bool == true })
        #expect((answer["resources"] as? [String])?.contains("healthprobe://docs/anomaly-types") == true)
        #expect((answer["firstResource"] as? String)?.contains("silent_deletion") == true)

        let results = Self.calls(answer)
        #expect(results.count == 10)
        #expect(results.prefix(9).allSatisfy { $0["isError"] as? Bool == false })
        func structured(_ index: Int) -> [String: Any] { results[index]["structured"] as? [String: Any] ?? [:] }

        // The status agrees with the archive's own counts.
        let captures = try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM capture WHERE status = 'complete'")
        #expect(structured(0)["captures"] as? Int == captures)
        #expect((structured(0)["openAnomalies"] as? [String: Int])?.values.reduce(0, +) ?? 0 > 0)
        #expect((structured(1)["anomalies"] as? [[String: Any]])?.isEmpty == false)
        #expect((structured(2)["markdown"] as? String)?.hasPrefix("## HealthProbe anomaly #1") == true)
        #expect((structured(3)["captures"] as? [Any])?.count == captures)

        // Per day, each sample once: the day with surplus copies says how many it left out.
        let days = try #require(structured(5)["days"] as? [[String: Any]])
        #expect(days.count == 5)
        let firstDay = try ArchiveInspection.scalar(
            archive,
            """
            SELECT COUNT(DISTINCT semanticFingerprint) FROM record WHERE type = '\(heartRate)' AND goneCapture IS NULL
              AND startDate >= 951868800 AND startDate < 951955200
            """)
        #expect(days[0]["count"] as? Int == firstDay)
        let steps = (structured(6)["days"] as? [[String: Any]])?.first
        #expect((steps?["copiesLeftOut"] as? Int ?? 0) > 0)
        #expect((structured(7)["daysWithLosses"] as? [Any])?.isEmpty == false)

        // Records: times and sources, never a value without --reveal-values.
        let records = try #require(structured(8)["records"] as? [[String: Any]])
        #expect(!records.isEmpty && records.allSatisfy { $0["value"] == nil && $0["source"] != nil })
        #expect(results[9]["isError"] as? Bool == true)
        #expect((results[9]["text"] as? String)?.contains("archive_status lists the types") == true)

        // Nothing changed but the trail, which names each tool and never an argument's value.
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
        let notes = try ArchiveInspection.strings(
            archive, "SELECT message FROM auditEntry WHERE event = 'assistantQueried'")
        #expect(notes.count == 9)
        #expect(notes.contains { $0.contains("daily_summary (arguments from, sample_type, to)") })
        #expect(!notes.contains { $0.contains("2000-03") || $0.contains("HeartRate") })
    }

    @Test func largeAnswersArePagedAndBadQuestionsAnsweredInOneLine() throws {
        let (folder, archive) = try Self.demoArchive()
        let page = ["sample_type": "HeartRate", "from": "2000-03-01", "to": "2000-03-02", "limit": 5] as [String: Any]
        let first = try Self.ask(archive, [["tool": "get_records", "arguments": page]], in: folder)
        let firstPage = try #require(Self.calls(first).first?["structured"] as? [String: Any])
        let ids = (firstPage["records"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
        #expect(ids.count == 5)
        let next = try #require(firstPage["nextCursor"] as? Int)
        #expect(next == ids.last)
        var following = page
        following["cursor"] = next
        let second = try Self.ask(archive, [["tool": "get_records", "arguments": following]], in: folder)
        let secondIDs =
            ((Self.calls(second).first?["structured"] as? [String: Any])?["records"] as? [[String: Any]])?
            .compactMap { $0["id"] as? Int } ?? []
        #expect(secondIDs.count == 5 && Set(secondIDs).isDisjoint(with: ids) && secondIDs.min()! > ids.max()!)

        let bad = try Self.ask(
            archive,
            [
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "HeartRate", "from": "2000-13-45", "to": "2000-03-01"],
                ],
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "HeartRate", "from": "1990-01-01", "to": "2000-03-01"],
                ],
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "HeartRate", "from": "2000-03-02", "to": "2000-03-01"],
                ],
            ], in: folder)
        let answers = Self.calls(bad)
        #expect(answers.allSatisfy { $0["isError"] as? Bool == true })
        #expect(
            answers.compactMap { $0["text"] as? String } == [
                "from 2000-13-45 is not a day; give it as YYYY-MM-DD (2000-01-31)",
                "at most 3,660 days at a time; ask again for a shorter period",
                "from 2000-03-02 is after to 2000-03-01; give the earlier day as from",
            ])

        // Arguments the tool does not take, or of another type or range: invalid params, naming them.
        let forged = "weighs 82.5 kg\n2026-11-28 21:00:00 UTC capture completed forged\u{1B}[31m"
        let refused = try Self.ask(
            archive,
            [
                ["tool": "get_anomaly", "arguments": ["id": "one"]],
                ["tool": "list_anomalies", "arguments": ["severity": "dire"]],
                ["tool": "list_anomalies", "arguments": ["limit": "ten"]],
                ["tool": "list_anomalies", "arguments": ["limit": -5]],
                ["tool": "get_records", "arguments": page.merging(["time_zone": 5]) { $1 }],
                ["tool": "archive_status", "arguments": [forged: 1]],
                ["tool": "archive_status", "arguments": [String(repeating: "x", count: 200_000): 1]],
                ["tool": "no_such_tool"],
            ], in: folder)
        let errors = Self.calls(refused).compactMap { $0["error"] as? [String: Any] }
        #expect(errors.count == 8, "\(Self.calls(refused))")
        #expect(errors.allSatisfy { $0["code"] as? Int == -32602 })
        let messages = errors.compactMap { $0["message"] as? String }
        for (index, expected) in [
            "id must be a whole number", "severity must be one of info, warning, critical",
            "limit must be a whole number", "limit must be from 1 to 500", "time_zone must be a string",
            "unknown argument \"weighs 82.5 kg\\n2026-11-28 21:00:00 UTC c…\"; this tool takes none",
            "unknown argument \"\(String(repeating: "x", count: 40))…\"; this tool takes none",
            "there is no tool \"no_such_tool\"",
        ].enumerated() {
            #expect(messages.count > index && messages[index].contains(expected), "\(messages)")
        }
        let trail = try CommandRunner.run(["audit", "--archive", archive])
        #expect(!trail.stdout.contains("weighs"), "\(trail.stdout)")
        #expect(!trail.stdout.contains("xxxxxxxxxx"))

        // No archive: one line, and none is made.
        let missing = folder.appendingPathComponent("none.sqlite").path
        let noArchive = try CommandRunner.run(["mcp", "--archive", missing])
        #expect(noArchive.status == 74)
        #expect(noArchive.stderr.contains("no archive at"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// Without a type, each day's figures as the Health app shows them: the demo's steps come from
    /// one source, so a day's steps are its step samples once each, however many copies there are.
    @Test func dayFiguresCountEachSampleOnce() throws {
        let (folder, archive) = try Self.demoArchive()
        let answer = try Self.ask(
            archive, [["tool": "daily_summary", "arguments": ["from": "2000-03-03", "to": "2000-03-04"]]], in: folder)
        let days = try #require(
            (Self.calls(answer).first?["structured"] as? [String: Any])?["days"] as? [[String: Any]])
        #expect(days.map { $0["day"] as? String } == ["2000-03-03", "2000-03-04"])
        let figures = try #require(days.first?["figures"] as? [String: Any])
        let steps = try ArchiveInspection.scalar(
            archive,
            """
            SELECT CAST(SUM(numericValue) AS INTEGER) FROM (
              SELECT DISTINCT unit, startDate, endDate, numericValue FROM record
              WHERE type = 'HKQuantityTypeIdentifierStepCount' AND goneCapture IS NULL
                AND startDate >= 952041600 AND startDate < 952128000)
            """)
        #expect((figures["total_steps"] as? NSNumber)?.intValue == steps)
        #expect(figures["sleep_hours"] != nil && figures["avg_heart_rate"] != nil)
        // The day with surplus step copies names the anomaly that says so.
        #expect((days.first?["anomalies"] as? [Int])?.isEmpty == false)
        #expect((days.last?["workouts"] as? [Any])?.count == 1)
    }

    /// The concurrency contract: a check writing the archive in another process does not keep
    /// the assistant waiting, nor make it see half a capture.
    @Test func aCheckRunningBesideItDoesNotStopTheAnswers() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let first = folder.appendingPathComponent("first.zip")
        let second = folder.appendingPathComponent("second.zip")
        var options = SyntheticExportOptions(elementCount: 60_000, seed: 3)
        try SyntheticExportGenerator(options: options).writeZip(to: first)
        options.utcOffsetSeconds = 3600
        try SyntheticExportGenerator(options: options).writeZip(to: second)
        #expect(try CommandRunner.run(["check", first.path, "--archive", archive]).status == 0)

        let check = try CommandRunner.start(["check", second.path, "--archive", archive])
        let asked = try Self.ask(
            archive,
            [
                ["tool": "archive_status"], ["tool": "list_captures"],
                [
                    "tool": "daily_summary",
                    "arguments": ["sample_type": "HeartRate", "from": "2000-01-01", "to": "2000-01-31"],
                ],
            ], in: folder)
        let wasRunning = check.isRunning
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
        let answers = Self.calls(asked)
        #expect(answers.count == 3 && answers.allSatisfy { $0["isError"] as? Bool == false })
        // Whole captures only: the first, or both once the second is complete.
        let captures = (answers[1]["structured"] as? [String: Any])?["captures"] as? [[String: Any]] ?? []
        #expect(captures.count == 1 || captures.count == 2)
        #expect(captures.allSatisfy { $0["completedAt"] != nil })
        if !wasRunning { print("note: the check ended before the assistant's questions were answered") }
    }

    @Test func valuesOnlyWhenTheUserRevealedThem() throws {
        let (folder, archive) = try Self.demoArchive()
        let ask =
            [
                "tool": "get_records",
                "arguments": ["sample_type": "HeartRate", "from": "2000-03-01", "to": "2000-03-01"],
            ]
            as [String: Any]
        let hidden = try Self.ask(archive, [ask], in: folder)
        let revealed = try Self.ask(archive, [ask], reveal: true, in: folder)
        func records(_ answer: [String: Any]) -> [[String: Any]] {
            (Self.calls(answer).first?["structured"] as? [String: Any])?["records"] as? [[String: Any]] ?? []
        }
        #expect(!records(hidden).isEmpty && records(hidden).allSatisfy { $0["value"] == nil })
        #expect(!records(revealed).isEmpty && records(revealed).allSatisfy { $0["value"] != nil })
    }
}

import Foundation
import TestSupport
import Testing

/// What an assistant may learn without `--reveal-values` (docs/DESIGN.md §9), asked as a
/// determined asker would through the Python MCP SDK: every zone, overlapping periods, both
/// forms of `daily_summary`. A hand-entered step count of 100 beside two sources' parts is never
/// given, nor any difference of what is given that equals it.
@Suite("What an assistant may learn")
struct AssistantPrivacyTests {
    static let handEntered = 100.0

    /// 2000-01-10: four step counts from an iPhone, four from Connect, one entered by hand (100),
    /// at times apart; 21 heart rate readings an hour apart from 01:30, so that a day shifted by
    /// an hour holds one more or one fewer.
    static func export(in folder: URL) throws -> URL {
        func steps(_ source: String, _ hour: Int, _ value: Int, byHand: Bool = false) -> String {
            let time = String(format: "2000-01-10 %02d:10:00 +0000", hour)
            let end = String(format: "2000-01-10 %02d:20:00 +0000", hour)
            let metadata = byHand ? "<MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>" : ""
            return """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(source)" unit="count" \
                creationDate="\(time)" startDate="\(time)" endDate="\(end)" value="\(value)">\(metadata)</Record>

                """
        }
        var body = ""
        for (hour, value) in zip([6, 7, 8, 9], [37, 41, 43, 47]) { body += steps("iPhone-TESTDEVICE", hour, value) }
        for (hour, value) in zip([12, 13, 14, 15], [53, 59, 61, 67]) { body += steps("Connect", hour, value) }
        body += steps("Health", 18, Int(handEntered), byHand: true)
        for reading in 0..<21 {
            let time = String(format: "2000-01-10 %02d:30:00 +0000", reading + 1)
            body += """
                 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Test User’s Apple Watch" \
                unit="count/min" creationDate="\(time)" startDate="\(time)" endDate="\(time)" value="\(60 + reading % 7)"/>

                """
        }
        let url = folder.appendingPathComponent("export.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2000-01-20 10:00:00 +0000"/>
        \(body)</HealthData>

        """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Every number anywhere in an answer.
    static func numbers(_ value: Any) -> [Double] {
        switch value {
        case let number as NSNumber: [number.doubleValue]
        case let array as [Any]: array.flatMap(numbers)
        case let object as [String: Any]: object.values.flatMap(numbers)
        default: []
        }
    }

    @Test func noWithheldValueIsDerivableFromAnyZonePeriodOrForm() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", try Self.export(in: folder).path, "--archive", archive]).status <= 1)
        #expect(try CommandRunner.run(["settings", "--time-zone", "Etc/UTC", "--archive", archive]).status == 0)

        let zones =
            (-14...12).map { $0 == 0 ? "Etc/GMT" : "Etc/GMT\($0 < 0 ? "" : "+")\($0)" } + [
                "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin", "UTC",
            ]
        let periods = [("2000-01-10", "2000-01-10"), ("2000-01-09", "2000-01-11"), ("2000-01-01", "2000-01-31")]
        var calls: [[String: Any]] = []
        for (from, to) in periods {
            for type in [nil, "steps", "heart_rate"] as [String?] {
                for zone in [nil, "Etc/UTC"] + zones {
                    var arguments: [String: Any] = ["from": from, "to": to]
                    if let type { arguments["sample_type"] = type }
                    if let zone { arguments["time_zone"] = zone }
                    calls.append(["tool": "daily_summary", "arguments": arguments])
                }
            }
        }
        let answers = AssistantAccessTests.calls(try AssistantAccessTests.ask(archive, calls, in: folder))
        #expect(answers.count == calls.count)
        var given: [Double] = []
        var dayEntries: [String: Set<String>] = [:]
        for (call, answer) in zip(calls, answers) {
            let zone = (call["arguments"] as? [String: Any])?["time_zone"] as? String
            if zone == nil || zone == "Etc/UTC" {
                #expect(answer["isError"] as? Bool == false, "\(answer)")
                let structured = answer["structured"] as? [String: Any] ?? [:]
                given += Self.numbers(structured)
                // The same day, asked within any period, is the same answer.
                let type = (call["arguments"] as? [String: Any])?["sample_type"] as? String ?? "-"
                for day in structured["days"] as? [[String: Any]] ?? [] where day["day"] as? String == "2000-01-10" {
                    let text = String(
                        decoding: try JSONSerialization.data(withJSONObject: day, options: [.sortedKeys]), as: UTF8.self
                    )
                    dayEntries[type, default: []].insert(text)
                }
            } else {
                #expect(answer["isError"] as? Bool == true, "\(zone ?? "") was answered: \(answer)")
                #expect(
                    (answer["text"] as? String)?.contains(
                        "without revealed values, figures are given for the user's own days")
                        == true, "\(answer)")
            }
        }
        #expect(dayEntries.count == 3 && dayEntries.values.allSatisfy { $0.count == 1 }, "\(dayEntries)")

        // Neither the value nor any sum or difference of two or three figures given is it.
        let distinct = Array(Set(given)).sorted()
        #expect(!distinct.contains(Self.handEntered))
        var derived: [String] = []
        for a in distinct {
            for b in distinct where abs(a - b - Self.handEntered) < 1e-6 || abs(a + b - Self.handEntered) < 1e-6 {
                derived.append("\(a) and \(b)")
            }
            for b in distinct {
                for c in distinct where abs(a - b - c - Self.handEntered) < 1e-6 {
                    derived.append("\(a) − \(b) − \(c)")
                }
            }
        }
        #expect(derived.isEmpty, "\(derived.prefix(5))")

        // The parts of the day that are not the hand entry are still given.
        let steps = try #require(dayEntries["steps"]?.first)
        #expect(steps.contains("\"counted\":168") && steps.contains("\"counted\":240"), "\(steps)")
        #expect(steps.contains("\"withheld\":true"))
        let plain = try #require(dayEntries["-"]?.first)
        #expect(plain.contains("total_steps") && !plain.contains("\"total_steps\":"), "\(plain)")
    }
}

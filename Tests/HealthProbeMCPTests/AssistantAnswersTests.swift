import AppleHealthExport
import Foundation
import HealthProbeKit
import HealthProbeSimulation
import MCP
import Testing

@testable import HealthProbeMCP

/// The assistant's answers in process, from an archive of the multi-source export: the names
/// people and assistants use for a type, the nearest when none fits, and no single record's value
/// unless values were revealed. (Through the official Python SDK: the command line's
/// AssistantAccessTests.)
@Suite("Assistant answers")
struct AssistantAnswersTests {
    let store: ArchiveStore

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
        _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: export))
    }

    func summary(_ type: String, reveal: Bool = false) throws -> [String: Value] {
        let answer = try AssistantAnswers(store: store, revealValues: reveal).answer(
            "daily_summary",
            ["sample_type": .string(type), "from": "2000-03-20", "to": "2000-03-25", "time_zone": "Europe/Berlin"])
        return try #require(answer.structured.objectValue)
    }

    @Test(arguments: [
        ("steps", "HKQuantityTypeIdentifierStepCount"), ("heart_rate", "HKQuantityTypeIdentifierHeartRate"),
        ("Sleep", "HKCategoryTypeIdentifierSleepAnalysis"), ("weight", "HKQuantityTypeIdentifierBodyMass"),
        ("step count", "HKQuantityTypeIdentifierStepCount"),
        ("HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierHeartRate"),
    ])
    func aTypeIsTakenByTheNamesPeopleUse(name: String, identifier: String) throws {
        #expect(try summary(name)["type"]?.stringValue == identifier)
    }

    @Test func aNameThatFitsNoTypeGetsTheNearestTheArchiveHolds() throws {
        let answers = AssistantAnswers(store: store, revealValues: false)
        #expect {
            _ = try answers.answer(
                "daily_summary", ["sample_type": "hartrate", "from": "2000-03-20", "to": "2000-03-21"])
        } throws: { error in
            (error as? AssistantProblem)?.message
                == "the archive holds no type hartrate; the nearest it holds: HeartRate (heart rate)"
        }
    }

    @Test func noSingleRecordsValueUnlessRevealed() throws {
        let days = { (answer: [String: Value]) in answer["days"]?.arrayValue?.compactMap(\.objectValue) ?? [] }
        // Body mass: two weighings a day — each day's figure would be one of them.
        let weights = days(try summary("weight"))
        #expect(!weights.isEmpty)
        for day in weights {
            #expect(day["withheld"]?.boolValue == true)
            #expect(day["mean"] == nil && day["minimum"] == nil && day["maximum"] == nil)
        }
        // Heart rate: eight readings a day — a mean, never a lowest or highest reading.
        let beats = days(try summary("heart_rate"))
        #expect(beats.count == 6)
        for day in beats {
            #expect(day["mean"] != nil && day["withheld"] == nil)
            #expect(day["minimum"] == nil && day["maximum"] == nil)
        }
        let revealed = days(try summary("weight", reveal: true))
        #expect(revealed.allSatisfy { $0["mean"] != nil && $0["minimum"] != nil && $0["withheld"] == nil })
    }
}

import AppleHealthExport
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeSimulation
import MCP
import TestSupport
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
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
        _ = try AppleExportImporter(store: store).importExport(AppleExportReader(url: export))
        // The user's own days: without revealed values, the only ones figures are given for.
        try store.setDayZone(TimeZone(identifier: "Europe/Berlin"))
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

    /// Every tool with days takes `time_zone` and names it: a day's records are those whose start
    /// falls on that local day there, and the coverage's days are local days.
    @Test(arguments: ["Pacific/Kiritimati", "America/Los_Angeles"])
    func daysAreTheLocalDaysOfTheZoneAsked(zoneName: String) throws {
        let answers = AssistantAnswers(store: store, revealValues: false)
        func starts(_ zone: String) throws -> (named: String?, starts: [Date]) {
            let answer = try #require(
                try answers.answer(
                    "get_records",
                    [
                        "sample_type": "heart_rate", "from": "2000-03-21", "to": "2000-03-21",
                        "time_zone": .string(zone),
                        "limit": 500,
                    ]
                ).structured.objectValue)
            let records = answer["records"]?.arrayValue?.compactMap(\.objectValue) ?? []
            return (
                answer["timeZone"]?.stringValue,
                records.compactMap { $0["start"]?.stringValue.flatMap(ISO8601DateFormatter().date(from:)) }
            )
        }
        let zone = try #require(TimeZone(identifier: zoneName))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let local = try starts(zoneName)
        #expect(local.named == zoneName)
        #expect(!local.starts.isEmpty)
        for start in local.starts {
            let day = calendar.dateComponents([.year, .month, .day], from: start)
            #expect([day.year, day.month, day.day] == [2000, 3, 21], "\(start) in \(zoneName)")
        }
        #expect(Set(try starts("UTC").starts) != Set(local.starts))
        let coverage = try #require(
            try answers.answer(
                "coverage",
                ["sample_type": "heart_rate", "from": "2000-03-01", "to": "2000-04-30", "time_zone": .string(zoneName)]
            ).structured.objectValue)
        #expect(coverage["timeZone"]?.stringValue == zoneName)
        let figures = try store.dayFigures(
            types: ["HKQuantityTypeIdentifierHeartRate"],
            days: DayRange.day("2000-03-01")!...DayRange.day("2000-04-30")!,
            zone: zone)
        let withFigures = Set(figures.map { UTCText.day($0.day) })
        let empty = Set(coverage["daysWithoutRecords"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(empty.count + withFigures.count == 61, "a day has records or is listed without, in the same days")
        #expect(empty.isDisjoint(with: withFigures))
    }

    /// A period the tools cannot read is answered with what is wrong with it.
    @Test(arguments: [
        (["from": "2000-03-20"], "give to, a day as YYYY-MM-DD"),
        (["from": "2000-03-20", "to": "2001-02-30"], "to 2001-02-30 is not a day; give it as YYYY-MM-DD (2000-01-31)"),
        (
            ["from": "20-03-2000", "to": "2000-03-21"],
            "from 20-03-2000 is not a day; give it as YYYY-MM-DD (2000-01-31)"
        ),
        (["from": "1900-01-01", "to": "2100-01-01"], "from and to are more than a century apart"),
        (["from": "2000-01-01", "to": "2099-12-31"], "at most 3,660 days at a time; ask again for a shorter period"),
    ])
    func aPeriodItCannotReadIsSaidAsItIs(period: [String: String], message: String) throws {
        let answers = AssistantAnswers(store: store, revealValues: false)
        var arguments: [String: Value] = ["sample_type": "steps"]
        for (key, value) in period { arguments[key] = .string(value) }
        #expect {
            _ = try answers.answer("daily_summary", arguments)
        } throws: { error in
            (error as? AssistantProblem)?.message == message
        }
    }

    /// Without a type, a day's figures keep the same promise: no lowest, highest or last reading,
    /// no figure of fewer than three samples, no workout's distance or energy — each named in
    /// `withheld` — unless values were revealed.
    @Test func theDaysFiguresGiveNoSingleRecordsValueUnlessRevealed() throws {
        func days(reveal: Bool) throws -> [[String: Value]] {
            let answer = try AssistantAnswers(store: store, revealValues: reveal).answer(
                "daily_summary", ["from": "2000-03-20", "to": "2000-03-25", "time_zone": "Europe/Berlin"])
            return answer.structured.objectValue?["days"]?.arrayValue?.compactMap(\.objectValue) ?? []
        }
        let hidden = try days(reveal: false)
        let revealed = try days(reveal: true)
        #expect(hidden.count == revealed.count && !hidden.isEmpty)
        let oneReading = ["min_heart_rate", "max_heart_rate", "body_mass_kg"]
        var withheldSeen: Set<String> = []
        for (day, open) in zip(hidden, revealed) {
            let figures = day["figures"]?.objectValue ?? [:]
            let withheld = Set(day["withheld"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            withheldSeen.formUnion(withheld)
            for name in oneReading { #expect(figures[name] == nil, "\(name) on \(day["day"] ?? "?")") }
            for name in oneReading where open["figures"]?.objectValue?[name] != nil {
                #expect(withheld.contains(name))
            }
            for workout in day["workouts"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                #expect(workout["total_energy_burned"] == nil && workout["total_distance"] == nil)
            }
            #expect(day["withheld"] == nil || open["withheld"] == nil)
        }
        #expect(withheldSeen.isSuperset(of: ["min_heart_rate", "max_heart_rate", "body_mass_kg"]))
        #expect(revealed.allSatisfy { $0["withheld"] == nil })
    }

    /// One definition of a day: without a type, a day's summed figures are the figures of each
    /// type the Health app shows (sources that record the same time never added up), as the
    /// form with a type gives them — on an export whose Watch and iPhone record the same steps.
    @Test func bothFormsGiveTheSameDay() throws {
        let answers = AssistantAnswers(store: store, revealValues: true)
        let period: [String: Value] = ["from": "2000-03-20", "to": "2000-03-25"]
        let everyType = try #require(
            try answers.answer("daily_summary", period).structured.objectValue?["days"]?.arrayValue)
        var compared = 0
        for (property, type, key) in [
            ("total_steps", "steps", "total"), ("sleep_hours", "sleep", "hoursAsleep"),
        ] {
            var arguments = period
            arguments["sample_type"] = .string(type)
            let oneType = try #require(
                try answers.answer("daily_summary", arguments).structured.objectValue?["days"]?.arrayValue)
            for day in oneType.compactMap(\.objectValue) {
                guard let figure = day[key]?.doubleValue ?? day[key]?.intValue.map(Double.init) else { continue }
                let same = everyType.compactMap(\.objectValue).first { $0["day"] == day["day"] }
                let figures = same?["figures"]?.objectValue
                let shown = try #require(
                    figures?[property]?.doubleValue ?? figures?[property]?.intValue.map(Double.init),
                    "\(property) on \(day["day"] ?? "?")")
                #expect(abs(shown - figure) <= 0.5 + figure * 1e-9, "\(property) on \(day["day"] ?? "?")")
                compared += 1
            }
        }
        #expect(compared >= 4)
    }
}

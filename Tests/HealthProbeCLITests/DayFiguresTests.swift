import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// `healthprobe day` against an independent reader of the export's XML
/// (Scripts/day-figures-reference.py, written apart from the Swift component): every day and
/// type the same figure, on an export where several sources record one life and on the real
/// exports among the fixtures, in several zones (daylight saving time included).
@Suite("Day figures against an independent reference", .serialized)
struct DayFiguresTests {
    /// One figure, keyed by day and type, in the reference's units (m, kg, kcal, count, min).
    struct Figure: Equatable {
        var value: Double
        var minimum: Double?
        var maximum: Double?
        var inBed: Double?
    }

    static let factors: [String: Double] = [
        "km": 1_000, "cm": 0.01, "mm": 0.001, "mi": 1_609.344, "ft": 0.3048, "in": 0.0254, "g": 0.001,
        "lb": 0.453_592_37, "kJ": 1 / 4.184, "cal": 0.001, "s": 1 / 60.0, "hr": 60, "km/hr": 1 / 3.6, "mi/hr": 0.447_04,
    ]

    static func referenceFigures(_ export: URL, zone: String, from: String, to: String) throws -> [String: Figure] {
        let printed = try ReferenceScript.json(
            "day-figures-reference.py", [export.path, "--zone", zone, "--from", from, "--to", to])
        let list = try #require(printed as? [[String: Any]])
        var figures: [String: Figure] = [:]
        for item in list {
            let key = "\(item["date"] as? String ?? "") \(item["type"] as? String ?? "")"
            figures[key] = Figure(
                value: item["value"] as? Double ?? .nan, minimum: item["minimum"] as? Double,
                maximum: item["maximum"] as? Double, inBed: item["inBed"] as? Double)
        }
        return figures
    }

    static func healthProbeFigures(_ archive: String, zone: String, from: String, to: String) throws -> [String: Figure]
    {
        let outcome = try CommandRunner.run([
            "day", from, "--to", to, "--time-zone", zone, "--json", "--archive", archive,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(answer["timeZone"] as? String == zone)
        var figures: [String: Figure] = [:]
        for item in answer["figures"] as? [[String: Any]] ?? [] {
            let kind = item["kind"] as? String
            let unit = item["unit"] as? String ?? ""
            // Sleep is in hours on both sides; other amounts in the reference's unit.
            let factor = kind == "sleep" ? 1 : (factors[unit] ?? 1)
            let key = "\(item["date"] as? String ?? "") \(item["type"] as? String ?? "")"
            figures[key] = Figure(
                value: (item["value"] as? Double ?? .nan) * factor,
                minimum: (item["minimum"] as? Double).map { $0 * factor },
                maximum: (item["maximum"] as? Double).map { $0 * factor }, inBed: item["inBed"] as? Double)
        }
        return figures
    }

    static func close(_ left: Double?, _ right: Double?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?): return abs(left - right) <= 1e-6 * max(1, abs(left), abs(right))
        default: return false
        }
    }

    static func compare(_ export: URL, zone: String, from: String, to: String, archive: String) throws -> Int {
        let expected = try referenceFigures(export, zone: zone, from: from, to: to)
        let found = try healthProbeFigures(archive, zone: zone, from: from, to: to)
        #expect(Set(found.keys) == Set(expected.keys), "\(export.lastPathComponent) in \(zone)")
        for (key, figure) in expected {
            guard let other = found[key] else { continue }
            #expect(
                close(figure.value, other.value) && close(figure.minimum, other.minimum)
                    && close(figure.maximum, other.maximum) && close(figure.inBed, other.inBed),
                "\(key) in \(zone): reference \(figure), HealthProbe \(other)")
        }
        return expected.count
    }

    @Test(arguments: ["Europe/Berlin", "UTC", "America/Los_Angeles"])
    func severalSourcesOfOneLifeAgreeDayByDay(zone: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)
        let compared = try Self.compare(export, zone: zone, from: "2000-03-18", to: "2000-04-03", archive: archive)
        #expect(compared > 60)
    }

    /// The figures are the Health app's, not a sum: on the day of the spring change (23 hours)
    /// the iPhone's steps that the Watch also counted are left out and said so.
    @Test func aDayShowsEachSourcesPartAndWhatWasLeftOut() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)
        let day = try CommandRunner.run([
            "day", "2000-03-26", "--type", "steps", "--time-zone", "Europe/Berlin", "--archive", archive,
        ])
        #expect(day.status == 0, "\(day.stderr)")
        let lines = day.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2000-03-26 (Europe/Berlin)")
        #expect(lines.count == 6, "\(day.stdout)")
        #expect(lines[1].hasPrefix("step count: ") && lines[1].hasSuffix("; 1 exact copy left out"))
        #expect(lines[2].hasPrefix("  1. Health (entered by hand): 1,234 counted"))
        #expect(lines[3].contains("(Apple Watch)") && !lines[3].contains("left out"))
        #expect(lines[4].contains("(iPhone)") && lines[4].contains("left out, covered by a better-placed source"))
        #expect(lines[5].contains("Band App (app or device)"))
        let sleep = try CommandRunner.run([
            "day", "2000-03-26", "--type", "sleep", "--time-zone", "Europe/Berlin", "--archive", archive,
        ])
        // Nested sessions of one app never add up: hours asleep stay within what the Watch saw.
        #expect(sleep.stdout.contains("Sleep App (app or device): 0 h 00 min counted"), "\(sleep.stdout)")
    }

    /// The user's own order comes first (`settings --source-order`), is noted in the trail, and
    /// `default` gives Health's back.
    @Test func theUsersOwnOrderDecidesAndDefaultRestoresHealths() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)
        func steps() throws -> [String: Any] {
            let outcome = try CommandRunner.run([
                "day", "2000-03-26", "--type", "steps", "--time-zone", "Europe/Berlin", "--json", "--archive", archive,
            ])
            let answer = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            return try #require((answer?["figures"] as? [[String: Any]])?.first)
        }
        let before = try steps()
        let set = try CommandRunner.run([
            "settings", "--source-order", "steps", "Band App, iPhone-TESTDEVICE", "--archive", archive,
        ])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.contains("Source order of step count: Band App, iPhone-TESTDEVICE"))
        let chosen = try steps()
        let sources = try #require(chosen["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String }.prefix(2) == ["Band App", "iPhone-TESTDEVICE"])
        // The band's total covers the whole day: nothing else counts.
        #expect(sources.dropFirst().allSatisfy { ($0["counted"] as? Double ?? 1) == 0 })
        #expect(chosen["value"] as? Double == sources.first?["counted"] as? Double)
        #expect(chosen["value"] as? Double != before["value"] as? Double)
        let audit = try CommandRunner.run(["audit", "--archive", archive])
        #expect(audit.stdout.contains("Source order of HKQuantityTypeIdentifierStepCount set (2 sources)"))
        #expect(
            try CommandRunner.run(["settings", "--source-order", "steps", "default", "--archive", archive]).status == 0)
        #expect(try steps()["value"] as? Double == before["value"] as? Double)
    }

    /// One zone for every face: `settings --time-zone` is the default of `day` and of an export's
    /// local days, so both give the same figure for a day; `system` gives this computer's back.
    @Test func theChosenZoneIsEveryFacesDefault() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        try MultiSourceExport().write(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)
        let set = try CommandRunner.run(["settings", "--time-zone", "Europe/Berlin", "--archive", archive])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Days in          Europe/Berlin"))
        let day = try CommandRunner.run(["day", "2000-03-26", "--type", "steps", "--json", "--archive", archive])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(day.stdout.utf8)) as? [String: Any])
        #expect(answer["timeZone"] as? String == "Europe/Berlin")
        let steps = try #require((answer["figures"] as? [[String: Any]])?.first?["value"] as? Double)
        let sqlite = folder.appendingPathComponent("export.sqlite").path
        #expect(
            try CommandRunner.run(["export", "--format", "sqlite", "--output", sqlite, "--archive", archive]).status
                == 0)
        let exported = try ArchiveInspection.text(
            sqlite,
            "SELECT CAST(sum AS TEXT) FROM dailySummaries WHERE day = '2000-03-26' AND type = 'HKQuantityTypeIdentifierStepCount'"
        )
        #expect(
            exported.flatMap(Double.init).map { abs($0 - steps) < 1e-6 * steps } == true, "\(exported ?? "-") \(steps)")
        #expect(try CommandRunner.run(["settings", "--time-zone", "system", "--archive", archive]).status == 0)
        let system = try CommandRunner.run(["day", "2000-03-26", "--json", "--archive", archive])
        #expect(!system.stdout.contains("Europe/Berlin"))
        let trail = try CommandRunner.run(["audit", "--archive", archive]).stdout
        #expect(
            trail.contains("Days shown in Europe/Berlin") && trail.contains("Days shown in this computer's time zone"))
    }

    @Test(arguments: [
        ("opendroid/sampleexport-2.xml", "2014-09-19", "2015-09-18"),
        ("opendroid/sampleexport-2.xml", "2020-01-23", "2021-01-22"),
        ("opendroid/audio_exposure.xml", "2020-01-23", "2021-01-22"),
        ("tdda/export6s3sample.xml", "2014-09-12", "2015-09-11"),
        ("alxdrcirilo/export.xml", "2023-12-31", "2024-01-03"),
        ("dogsheep/export.xml", "2016-04-17", "2016-04-19"),
    ])
    func realExportsAgreeDayByDay(file: String, from: String, to: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let export = FixtureFiles.url(file)
        #expect(try CommandRunner.run(["check", export.path, "--archive", archive]).status == 0)
        var compared = 0
        for zone in ["America/New_York", "Europe/Berlin"] {
            compared += try Self.compare(export, zone: zone, from: from, to: to, archive: archive)
        }
        #expect(compared > 0)
    }
}

/// A night people would doubt is said with what made it: more than 14 hours asleep (a hand entry
/// is the user's own), or asleep longer than in bed.
@Suite("Day figures: a night that reads wrong")
struct DoubtfulNightTests {
    static func record(_ source: String, _ start: String, _ end: String, _ value: String, byHand: Bool = false)
        -> String
    {
        let by = byHand ? #"<MetadataEntry key="HKWasUserEntered" value="1"/>"# : ""
        return """
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\(source)" sourceVersion="1" \
            creationDate="\(end)" startDate="\(start)" endDate="\(end)" value="HKCategoryValueSleepAnalysis\(value)">\(by)</Record>
            """
    }

    @Test func aLongNightAndSleepOutsideBedAreExplained() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let export = folder.appendingPathComponent("export.xml")
        let records = [
            // 2000-01-02: 15 hours entered by hand in Health.
            Self.record(
                "Health", "2000-01-01 18:30:00 +0000", "2000-01-02 09:30:00 +0000", "AsleepUnspecified", byHand: true),
            // 2000-01-04: a Watch's 8 hours asleep, an iPhone's 6 hours in bed.
            Self.record(
                "Test User’s Apple Watch", "2000-01-03 22:00:00 +0000", "2000-01-04 06:00:00 +0000", "AsleepCore"),
            Self.record("Test User’s iPhone", "2000-01-03 23:00:00 +0000", "2000-01-04 05:00:00 +0000", "InBed"),
            // 2000-01-06: an ordinary night.
            Self.record(
                "Test User’s Apple Watch", "2000-01-05 23:00:00 +0000", "2000-01-06 06:30:00 +0000", "AsleepCore"),
            Self.record("Test User’s iPhone", "2000-01-05 22:30:00 +0000", "2000-01-06 07:00:00 +0000", "InBed"),
        ]
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2000-01-10 12:00:00 +0000"/>
            \(records.joined(separator: "\n"))
            </HealthData>

            """.utf8
        ).write(to: export)
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let check = try CommandRunner.run(["check", export.path, "--archive", archive])
        #expect(check.status == 0, "\(check.stderr)")
        func night(_ date: String) throws -> String {
            let day = try CommandRunner.run([
                "day", date, "--type", "sleep", "--time-zone", "UTC", "--archive", archive,
            ])
            #expect(day.status == 0, "\(day.stderr)")
            return day.stdout
        }
        let long = try night("2000-01-02")
        #expect(long.contains("15 h 00 min asleep"), "\(long)")
        #expect(
            long.contains(
                "  Over 14 hours asleep: its longest entry, 15 h 00 min, comes from Health (entered by hand): your own "
                    + "entry, counted as entered."), "\(long)")
        let outOfBed = try night("2000-01-04")
        #expect(outOfBed.contains("8 h 00 min asleep, 6 h 00 min in bed"), "\(outOfBed)")
        #expect(
            outOfBed.contains(
                "  Asleep longer than in bed: in bed is only the time a source entered as in bed, and its longest "
                    + "entry, 8 h 00 min, comes from Test User’s Apple Watch (Apple Watch)."), "\(outOfBed)")
        let ordinary = try night("2000-01-06")
        #expect(ordinary.contains("7 h 30 min asleep, 8 h 30 min in bed"), "\(ordinary)")
        #expect(!ordinary.contains("Over") && !ordinary.contains("longer than in bed"), "\(ordinary)")
    }
}

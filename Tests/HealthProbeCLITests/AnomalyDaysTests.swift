import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// An anomaly names the days of the zone every face shows (`settings --time-zone`): a loss in the
/// small hours of UTC is the local evening before in Los Angeles, the local afternoon of the same
/// day on Kiritimati. Checked against the anomaly's own records, their days worked out here with
/// Foundation's calendar.
@Suite("Anomaly days in the chosen zone")
struct AnomalyDaysTests {
    static func localDay(_ iso: String, in zone: TimeZone) throws -> String {
        let instant = try #require(ISO8601DateFormatter().date(from: iso))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// Each anomaly's `dateRange`, by id, and the range its records say in `zone`.
    static func ranges(_ archive: String, zone: TimeZone) throws -> [(found: String, expected: String)] {
        let listed = try CommandRunner.run(["anomalies", "--json", "--archive", archive])
        let anomalies = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        var ranges: [(String, String)] = []
        for anomaly in anomalies where anomaly["type"] as? String == "silent_deletion" {
            let id = try #require(anomaly["id"] as? Int)
            let shown = try CommandRunner.run([
                "show", String(id), "--format", "json", "--limit", "1000", "--archive", archive,
            ])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            let evidence = try #require((report["anomaly"] as? [String: Any])?["evidence"] as? [String: String])
            let records = try #require(report["records"] as? [[String: Any]])
            let first = try records.compactMap { $0["startDate"] as? String }.map { try localDay($0, in: zone) }.min()
            let last = try records.compactMap { ($0["endDate"] ?? $0["startDate"]) as? String }
                .map { try localDay($0, in: zone) }.max()
            let expected = first == last ? first ?? "" : "\(first ?? "") – \(last ?? "")"
            ranges.append((evidence["dateRange"] ?? "", expected))
        }
        return ranges
    }

    /// An export, and the same a little later with every 40th record gone, in a folder of their own.
    static func twoExports(elements: Int) throws -> (folder: URL, own: URL, later: URL) {
        let folder = try FixtureFiles.temporaryFolder()
        let own = folder.appendingPathComponent("own.zip")
        let later = folder.appendingPathComponent("later.zip")
        try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: elements, seed: 5)).writeZip(to: own)
        var options = SyntheticExportOptions(elementCount: elements, seed: 5)
        options.omitEveryNth = 40
        try SyntheticExportGenerator(options: options).writeZip(to: later)
        return (folder, own, later)
    }

    @Test(arguments: ["Pacific/Kiritimati", "America/Los_Angeles"])
    func aLossNamesTheDaysOfTheChosenZone(zoneName: String) throws {
        let (folder, own, later) = try Self.twoExports(elements: 3_000)
        var shifted = 0
        for (name, archive) in [(zoneName, "zoned.sqlite"), ("UTC", "utc.sqlite")] {
            let path = folder.appendingPathComponent(archive).path
            #expect(try CommandRunner.run(["check", own.path, "--archive", path]).status == 0)
            #expect(try CommandRunner.run(["settings", "--time-zone", name, "--archive", path]).status == 0)
            _ = try CommandRunner.run(["check", later.path, "--archive", path])
            let zone = try #require(TimeZone(identifier: name))
            let ranges = try Self.ranges(path, zone: zone)
            #expect(ranges.count > 5)
            for range in ranges { #expect(range.found == range.expected, "\(name)") }
            if name != "UTC" {
                let utc = try #require(TimeZone(identifier: "UTC"))
                shifted = try Self.ranges(path, zone: utc).filter { $0.found != $0.expected }.count
            }
        }
        #expect(shifted > 0, "some loss falls on other days in \(zoneName) than in UTC")
    }

    /// Times printed follow the same zone: with Los Angeles chosen on a machine in UTC, `show`
    /// writes its records' times and `captures` its captures' in Pacific time.
    @Test func timesAreWrittenInTheChosenZone() throws {
        let (folder, own, later) = try Self.twoExports(elements: 2_000)
        let path = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["check", own.path, "--archive", path]).status == 0)
        _ = try CommandRunner.run(["check", later.path, "--archive", path])
        let pacific = [" PST", " PDT"]
        let before = try CommandRunner.run(["show", "1", "--archive", path]).stdout
        #expect(before.contains(" UTC") && !pacific.contains { before.contains($0) })
        #expect(
            try CommandRunner.run(["settings", "--time-zone", "America/Los_Angeles", "--archive", path]).status == 0)
        let shown = try CommandRunner.run(["show", "1", "--archive", path]).stdout
        #expect(pacific.contains { shown.contains($0) }, "\(shown.prefix(400))")
        #expect(!shown.contains(" UTC"))
        // The zone named once in the header when every time shares it, else beside each time.
        let captures = try CommandRunner.run(["captures", "--archive", path]).stdout
        #expect(pacific.contains { captures.contains($0) || captures.contains("(\($0.dropFirst()))") }, "\(captures)")
        #expect(!captures.contains("UTC"))
    }
}

import Foundation
import HealthProbeKit
import TestSupport
import Testing

/// What a new user reads in the first hour: one style for errors, one convention for times and
/// sizes, an audit trail that filters and says why an input was refused, and hints that name the
/// flag that shows more.
@Suite("A user's first hour: words and conventions")
struct FirstHourWordsTests {
    /// A demo archive with one refused input in its trail.
    private static func archiveWithARefusal() throws -> (folder: URL, archive: String) {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        #expect(try CommandRunner.run(["demo", "--keep", archive]).status == 0)
        let bad = folder.appendingPathComponent("not-an-export.xml")
        try Data("garbage".utf8).write(to: bad)
        #expect(try CommandRunner.run(["check", bad.path, "--archive", archive]).status == 65)
        return (folder, archive)
    }

    @Test func usageErrorsReadLikeEveryOtherFailure() throws {
        let option = try CommandRunner.run(["audit", "--frob"])
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("healthprobe: Unknown option '--frob'"))
        #expect(option.stderr.hasSuffix("See 'healthprobe audit --help' for more information.\n"))
        #expect(!option.stderr.contains("Error:") && !option.stderr.contains("Usage:"))

        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let type = try CommandRunner.run(["settings", "--monitor", "HeartRat", "--archive", archive])
        #expect(type.status == 64)
        #expect(
            type.stderr.hasPrefix("healthprobe: HeartRat is not a type HealthProbe monitors; did you mean HeartRate?"))
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    /// Every setting is made in a new archive as the README says: the zone and a source order
    /// too, not only the threshold; a zone that is none creates nothing.
    @Test func aZoneChosenFirstCreatesTheArchive() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let wrong = try CommandRunner.run(["settings", "--time-zone", "Europe/Nowhere", "--archive", archive])
        #expect(wrong.status == 64 && !FileManager.default.fileExists(atPath: archive))
        let chosen = try CommandRunner.run(["settings", "--time-zone", "Europe/Berlin", "--archive", archive])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let shown = try CommandRunner.run(["settings", "--archive", archive])
        #expect(shown.stdout.contains("Europe/Berlin"), "\(shown.stdout)")
    }

    @Test func theTrailFiltersAndSaysWhyAnInputWasRefused() throws {
        let (_, archive) = try Self.archiveWithARefusal()
        let refused = try CommandRunner.run(["audit", "--event", "input refused", "--archive", archive])
        #expect(refused.status == 0)
        let lines = refused.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("refused not-an-export.xml: not an Apple Health export") == true)

        let json = try CommandRunner.run(["audit", "--event", "inputRefused", "--json", "--archive", archive])
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == 1 && entries.allSatisfy { $0["event"] as? String == "inputRefused" })

        let all = try CommandRunner.run(["audit", "--archive", archive]).stdout.split(separator: "\n")
        let newest = try CommandRunner.run(["audit", "-n", "2", "--archive", archive]).stdout.split(separator: "\n")
        #expect(all.count > 2 && newest == Array(all.suffix(2)))

        let typo = try CommandRunner.run(["audit", "--event", "input refusd", "--archive", archive])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'input refused'?"))
    }

    @Test func onlyAWriteSaysNothingWasChanged() throws {
        let (_, archive) = try Self.archiveWithARefusal()
        let shown = try CommandRunner.run(["show", "9999", "--archive", archive])
        #expect(shown.status == 64)
        #expect(shown.stderr.hasPrefix("healthprobe: no anomaly with id 9999") && !shown.stderr.contains("nothing was"))
        let resolved = try CommandRunner.run(["resolve", "9999", "--archive", archive])
        #expect(resolved.status == 64 && resolved.stderr.contains("(nothing was changed)"))
    }

    @Test func timesAndSizesReadTheSameEverywhere() throws {
        let (_, archive) = try Self.archiveWithARefusal()
        let utc = ["TZ": "UTC"]
        let status = try CommandRunner.run(["status", "--archive", archive], environment: utc).stdout
        #expect(status.range(of: #"size \d+(\.\d)? (KiB|MiB)"#, options: .regularExpression) != nil, "\(status)")
        #expect(status.range(of: #"completed \d{4}-\d\d-\d\d \d\d:\d\d UTC"#, options: .regularExpression) != nil)
        let captures = try CommandRunner.run(["captures", "--archive", archive], environment: utc).stdout
        // Every time in one zone: named once, in the header.
        #expect(captures.contains("completed (UTC)"), "\(captures)")
        #expect(captures.range(of: #"\d{4}-\d\d-\d\d \d\d:\d\d  "#, options: .regularExpression) != nil)
        #expect(!captures.contains("T") || !captures.contains("Z  "))

        // A report lists some records and names the flag that lists them all; JSON gives ISO times.
        let listed = try CommandRunner.run(["anomalies", "--json", "--archive", archive]).stdout
        let anomalies = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let many = try #require(anomalies.first { ($0["recordCount"] as? Int ?? 0) > 2 })
        let id = try #require(many["id"] as? Int)
        let count = try #require(many["recordCount"] as? Int)
        let shown = try CommandRunner.run(["show", "\(id)", "--limit", "2", "--archive", archive], environment: utc)
        #expect(shown.stdout.contains("Records (2 of \(count))"))
        #expect(shown.stdout.contains("`healthprobe show \(id) --limit \(count)` lists every record"))
        #expect(
            shown.stdout.range(
                of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d( – \d\d:\d\d:\d\d)? UTC"#, options: .regularExpression) != nil)
        let json = try CommandRunner.run(["show", "\(id)", "--format", "json", "--limit", "1", "--archive", archive])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let record = try #require((report["records"] as? [[String: Any]])?.first)
        #expect((record["startDate"] as? String)?.hasSuffix("Z") == true)
    }

    /// The partial exports' state and the backups' folder are under `$HOME`, as the archive is.
    @Test func everyDefaultPlaceFollowsHome() throws {
        let home = try FixtureFiles.temporaryFolder()
        let environment = ["HOME": home.path, "XDG_STATE_HOME": "", "HEALTHPROBE_STATE_DIR": "", "XDG_DATA_HOME": ""]
        let demo = try CommandRunner.run(["demo", "--keep", home.appendingPathComponent("a.sqlite").path])
        #expect(demo.status == 0)
        let export = try CommandRunner.run(
            [
                "export", "--format", "csv", "--output", home.appendingPathComponent("out.csv").path, "--archive",
                home.appendingPathComponent("a.sqlite").path,
            ], environment: environment)
        #expect(export.status == 0, "\(export.stderr)")
        var isFolder: ObjCBool = false
        let state = home.appendingPathComponent(".local/state/healthprobe/partial-exports").path
        #expect(FileManager.default.fileExists(atPath: state, isDirectory: &isFolder) && isFolder.boolValue)

        let backups = try CommandRunner.run(["backups"], environment: environment)
        #expect(
            backups.stdout.contains(home.path + "/Library/Application Support/MobileSync/Backup"), "\(backups.stdout)")
        let status = try CommandRunner.run(["status"], environment: environment)
        #expect(status.stderr.contains(home.path + "/.local/share/healthprobe/archive.sqlite"))
    }
}

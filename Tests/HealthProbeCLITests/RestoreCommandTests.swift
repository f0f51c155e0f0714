import Foundation
import TestSupport
import Testing

/// `healthprobe restore` through the binary: what it writes is exactly what vanished, as an
/// independent reader of the two exports' XML finds it (Scripts/lost-records-reference.py).
@Suite("Restore files")
struct RestoreCommandTests {
    struct Setup {
        let folder: URL
        let archive: String
        let first: URL
        let second: URL

        init() throws {
            folder = try FixtureFiles.temporaryFolder()
            archive = folder.appendingPathComponent("archive.sqlite").path
            first = folder.appendingPathComponent("first.xml")
            second = folder.appendingPathComponent("second.xml")
            for (file, omit) in [(first, []), (second, ["--omit-every", "25"])] {
                let made = try CommandRunner.run(["generate", file.path, "--records", "3000", "--seed", "4"] + omit)
                #expect(made.status == 0, "\(made.stderr)")
                let checked = try CommandRunner.run(["check", file.path, "--archive", archive])
                #expect(checked.status == 0 || checked.status == 3, "\(checked.stderr)")
            }
        }

        func run(_ arguments: [String]) throws -> CommandRunner.Outcome {
            try CommandRunner.run(arguments + ["--archive", archive], in: folder)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    /// One record as both sides write it: type, source, unit, value or category value, times.
    struct Lost: Hashable, CustomStringConvertible {
        var fields: [String]
        var description: String { fields.joined(separator: " ") }

        init(_ object: [String: Any]) {
            let value = (object["value"] as? Double).map { String(format: "%.6g", $0) } ?? "-"
            fields =
                ["type", "sourceName", "unit"].map { object[$0] as? String ?? "-" } + [value]
                + ["categoryValue", "startDate", "endDate"].map { object[$0] as? String ?? "-" }
        }
    }

    static func referenceLost(_ setup: Setup) throws -> [Lost] {
        let listed = try ReferenceScript.json("lost-records-reference.py", [setup.first.path, setup.second.path])
        return try #require(listed as? [[String: Any]]).map(Lost.init)
    }

    static func restoreFile(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func theFileHoldsExactlyWhatVanishedAndADryRunSaysItPerTypeAndDay() throws {
        let setup = try Setup()
        let expected = try Self.referenceLost(setup)
        #expect(expected.count > 100)

        let dryRun = try setup.run(["restore", "--capture", "2", "--dry-run", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.path("restore.json")))
        let preview = try #require(try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any])
        #expect(preview["records"] as? Int == expected.count)

        let written = try setup.run(["restore", "--capture", "2", "--output", "restore.json"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(
            written.stdout.hasPrefix("Wrote \(setup.path("restore.json")): \(expected.count) records from anomalies "))
        #expect(written.stdout.contains("Left out: 2 correlations (not put back by this version)"), "\(written.stdout)")
        let file = try Self.restoreFile(setup.path("restore.json"))
        #expect(file["format"] as? String == "healthprobe-restore" && file["version"] as? Int == 1)
        let records = try #require(file["records"] as? [[String: Any]])
        #expect(Set(records.map(Lost.init)) == Set(expected))
        #expect(records.count == expected.count)
        // Each record's identifier is its own and the same in every restore of it.
        let identifiers = records.compactMap { $0["restoreIdentifier"] as? String }
        #expect(Set(identifiers).count == records.count && identifiers.allSatisfy { $0.hasPrefix("HealthProbe-") })
        #expect(records.allSatisfy { $0["device"] != nil && $0["creationDate"] != nil })

        // The dry run's days add up to the file's records, type by type.
        let types = try #require(preview["types"] as? [[String: Any]])
        for type in types {
            let days = (type["days"] as? [[String: Any]] ?? []).compactMap { $0["records"] as? Int }
            let name = type["type"] as? String
            #expect(days.reduce(0, +) == records.filter { $0["type"] as? String == name }.count)
        }

        let again = try setup.run(["restore", "--capture", "2", "--output", "again.json"])
        #expect(again.status == 0)
        let second = try #require(try Self.restoreFile(setup.path("again.json"))["records"] as? [[String: Any]])
        #expect(second.compactMap { $0["restoreIdentifier"] as? String } == identifiers)

        let trail = try setup.run(["audit", "--event", "restore written"])
        #expect(
            trail.stdout.contains("restore file written: \(expected.count) records of anomalies"), "\(trail.stdout)")
    }

    /// Records back since are never put back: checked again with the first export, nothing is left.
    @Test func recordsBackSinceAreLeftOut() throws {
        let setup = try Setup()
        let before = try setup.run(["restore", "--capture", "2", "--dry-run", "--json"])
        let preview = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])
        let others = (preview["leftOut"] as? [String: Any])?["otherKinds"] as? [String: Int] ?? [:]
        // Every record of the losses, those this version writes and those it does not (a workout).
        let lostCount = (preview["records"] as? Int ?? 0) + others.values.reduce(0, +)
        #expect(lostCount > 100)
        let back = try setup.run(["check", setup.first.path, "--allow-older"])
        #expect(back.status == 0 || back.status == 3, "\(back.stderr)")
        let dryRun = try setup.run(["restore", "--capture", "2", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.hasPrefix("Nothing to put back from anomalies "), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("Left out: \(lostCount) records back in Health since"), "\(dryRun.stdout)")
    }

    @Test func anEncryptedFileDecryptsToThePlainOne() throws {
        let setup = try Setup()
        let password = setup.path("password")
        try Data("Test Password\n".utf8).write(to: URL(fileURLWithPath: password))
        chmod(password, 0o600)
        let sealed = try setup.run([
            "restore", "--anomaly", "1", "--output", "restore.json.enc", "--encrypt", "--password-file", password,
        ])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(sealed.stdout.contains("(encrypted)"))
        let opened = try CommandRunner.run(
            [
                "decrypt", setup.path("restore.json.enc"), "--output", setup.path("opened.json"), "--password-file",
                password,
            ])
        #expect(opened.status == 0, "\(opened.stderr)")
        let plain = try setup.run(["restore", "--anomaly", "1", "--output", "plain.json"])
        #expect(plain.status == 0)
        var decrypted = try Self.restoreFile(setup.path("opened.json"))
        var clear = try Self.restoreFile(setup.path("plain.json"))
        (decrypted["createdAt"], clear["createdAt"]) = (nil, nil)
        #expect(NSDictionary(dictionary: decrypted).isEqual(to: clear))
    }

    /// What is no loss of the user's is refused in words, and no file is left behind.
    @Test func whatIsNoLossIsRefusedAndNothingIsWritten() throws {
        let setup = try Setup()
        let cases: [([String], String)] = [
            (["restore", "--anomaly", "999", "--output", "x.json"], "healthprobe: there is no anomaly 999; "),
            (["restore", "--capture", "1", "--output", "x.json"], "healthprobe: capture 1 proved no record lost"),
            (["restore", "--anomaly", "1"], "name the restore file with --output FILE, or see what it would hold"),
            (["restore", "--output", "x.json"], "name what to put back: --anomaly N (one or more) or --capture N"),
            // Refused before the password is read: the file named holds none.
            (
                ["restore", "--capture", "1", "--output", "x.json", "--encrypt", "--password-file", "missing"],
                "healthprobe: capture 1 proved no record lost"
            ),
        ]
        for (arguments, words) in cases {
            let refused = try setup.run(arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.stderr.hasPrefix(words) || refused.stderr.contains(words), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: setup.path("x.json")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: setup.folder.path).allSatisfy {
                !$0.contains("partial")
            })
        let exists = try setup.run(["restore", "--anomaly", "1", "--output", "first.xml"])
        #expect(exists.status == 64 && exists.stderr.contains("first.xml exists; add --force to replace it"))
    }
}

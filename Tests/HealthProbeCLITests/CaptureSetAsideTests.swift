import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

/// Someone else's export checked on purpose (`--allow-unrelated`) or by a slip: set aside, it
/// stays in the archive and the trail, and the archive compares as if it had never been checked;
/// taken back, everything is as it was.
@Suite("A capture set aside and taken back")
struct CaptureSetAsideTests {
    private struct Exports {
        let folder: URL
        let own: URL
        let other: URL
        let later: URL

        init() throws {
            folder = try FixtureFiles.temporaryFolder()
            own = folder.appendingPathComponent("own.zip")
            other = folder.appendingPathComponent("other.zip")
            later = folder.appendingPathComponent("later.zip")
            try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 5)).writeZip(
                to: own)
            try SyntheticExportGenerator(options: SyntheticExportOptions(elementCount: 3_000, seed: 11)).writeZip(
                to: other)
            var options = SyntheticExportOptions(elementCount: 3_000, seed: 5)
            options.omitEveryNth = 40
            try SyntheticExportGenerator(options: options).writeZip(to: later)
        }

        func archive(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    /// What decides every comparison: each record's marks, the absences, the anomalies, the
    /// sources. The sighting before the last is read only when asked: a capture set aside gives
    /// its records back their last sighting, and the one before it is never read again (the next
    /// capture writes it).
    private static func comparedState(_ archive: String, previousSighting: Bool = true) throws -> [String] {
        let previous = previousSighting ? "IFNULL(previousSeenCapture, '-')" : "'?'"
        return try ArchiveInspection.strings(
            archive,
            """
            SELECT 'record ' || id || ' ' || identityKey || ' ' || occurrence || ' ' || firstSeenCapture || ' '
                || lastSeenCapture || ' ' || \(previous) || ' ' || IFNULL(goneCapture, '-') || ' '
                || IFNULL(goneReason, '-') FROM record JOIN recordSighting ON recordId = record.id
            UNION ALL SELECT 'absence ' || recordId || ' ' || goneCapture || ' ' || returnCapture FROM recordAbsence
            UNION ALL SELECT 'anomaly of capture ' || captureId || ': ' || id || ' ' || type || ' ' || recordCount || ' '
                || IFNULL(withdrawnReason, 'open') || ' back ' || recoveredCount || ' in ' || IFNULL(recoveredCapture, '-')
                || (CASE WHEN recoveredAt IS NULL THEN '' ELSE ' whole' END) FROM anomaly
            UNION ALL SELECT 'arrival ' || type || ' ' || sourceName || ' ' || firstWritten || ' ' || enteredByHand
                FROM sourceArrival
            ORDER BY 1
            """)
    }

    /// The records present, with their marks, by identity: equal in two archives that saw the
    /// same exports, whatever else the one kept aside.
    private static func presentRecords(_ archive: String) throws -> [String] {
        try ArchiveInspection.strings(
            archive,
            """
            SELECT identityKey || ' ' || occurrence || ' ' || IFNULL(goneReason, 'present') FROM record
            WHERE goneReason IS NOT 'aside' ORDER BY identityKey, occurrence
            """)
    }

    /// The lines only one side holds, a few of each: what a failure shows.
    private static func difference(_ found: [String], _ expected: [String]) -> [String] {
        let (found, expected) = (Set(found), Set(expected))
        return found.subtracting(expected).sorted().prefix(5).map { "found " + $0 }
            + expected.subtracting(found).sorted().prefix(5).map { "expected " + $0 }
    }

    private static func findings(_ archive: String, capture: Int) throws -> [String] {
        try ArchiveInspection.strings(
            archive,
            """
            SELECT type || ' ' || sampleType || ' ' || severity || ' ' || recordCount FROM anomaly
            WHERE captureId = \(capture) ORDER BY 1
            """)
    }

    @Test func theArchiveComparesAsIfTheWrongExportHadNeverBeenChecked() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        let reference = exports.archive("reference.sqlite")
        for (input, path) in [(exports.own, archive), (exports.own, reference)] {
            #expect(try CommandRunner.run(["check", input.path, "--archive", path]).status == 0)
        }
        let wrong = try CommandRunner.run(["check", exports.other.path, "--archive", archive, "--allow-unrelated"])
        #expect(wrong.status == 0, "\(wrong.stderr)")
        // One anomaly says the capture shares almost nothing, not a loss and a backfill per type.
        let wrongFindings = try Self.findings(archive, capture: 2)
        #expect(wrongFindings.filter { $0.hasPrefix("unrelated_capture * critical ") }.count == 1, "\(wrongFindings)")
        #expect(!wrongFindings.contains { $0.hasPrefix("silent_deletion") || $0.hasPrefix("historical_insertion") })
        #expect(
            wrong.stdout.contains(
                "capture 2 shares 6 of the 3,130 records capture 1 held (3,124 gone, 3,118 new): it looks like "
                    + "someone else's export or another file, checked all the same"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("Verdict: critical: unrelated capture."))
        let afterWrong = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])

        // Refusals: no reason, a blank one, an earlier capture, one unknown. Nothing changes.
        #expect(try CommandRunner.run(["captures", "exclude", "2", "--archive", archive]).status == 64)
        let blank = try CommandRunner.run(["captures", "exclude", "2", "--reason", " ", "--archive", archive])
        #expect(blank.status == 64)
        #expect(blank.stderr == "healthprobe: say why with --reason: the trail keeps it (nothing was changed)\n")
        let earlier = try CommandRunner.run(["captures", "exclude", "1", "--reason", "x", "--archive", archive])
        #expect(earlier.status == 64)
        #expect(
            earlier.stderr.contains(
                "capture 2 was compared with the archive as capture 1 left it: set that one aside first"),
            "\(earlier.stderr)")
        let unknown = try CommandRunner.run(["captures", "exclude", "9", "--reason", "x", "--archive", archive])
        #expect(unknown.stderr.contains("there is no complete capture 9 in this archive"), "\(unknown.stderr)")
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == afterWrong)

        let setAside = try CommandRunner.run([
            "captures", "exclude", "2", "--reason", "not my export", "--archive", archive,
        ])
        #expect(setAside.status == 0, "\(setAside.stderr)")
        let withdrawn = try ArchiveInspection.scalar(
            archive, "SELECT COUNT(*) FROM anomaly WHERE captureId = 2 AND withdrawnReason = 'not my export'")
        #expect(withdrawn == wrongFindings.count)
        #expect(
            setAside.stdout.contains(
                "Set capture 2 aside: compared with nothing from now on; "
                    + (withdrawn == 1 ? "1 anomaly withdrawn" : "\(withdrawn) anomalies withdrawn")))

        // Kept: the capture, its records, its anomalies. Left out: of the status, the verdict, the records present.
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM record WHERE firstSeenCapture = 2") > 3_000)
        #expect(try Self.presentRecords(archive) == Self.presentRecords(reference))
        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.hasPrefix("Status: healthy"), "\(status.stdout)")
        #expect(status.stdout.contains("1 capture, 3,130 records ever seen, 0 gone"), "\(status.stdout)")
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        let list = try CommandRunner.run(["captures", "--archive", archive])
        #expect(list.stdout.contains("(not my export): compared with nothing; `healthprobe captures include 2`"))
        let trail = try CommandRunner.run(["audit", "--archive", archive])
        #expect(trail.stdout.contains("capture 2 set aside (not my export): left out of every comparison"))
        #expect(try CommandRunner.run(["anomalies", "--archive", archive]).stdout.contains("No unresolved anomalies"))

        // The user's next export is compared with their own, exactly as without the wrong one.
        for path in [archive, reference] {
            let next = try CommandRunner.run(["check", exports.later.path, "--archive", path])
            #expect(next.status != 64 && next.status != 65, "\(next.stderr)")
        }
        #expect(try Self.findings(archive, capture: 3) == Self.findings(reference, capture: 2))
        #expect(try !Self.findings(archive, capture: 3).isEmpty)
        #expect(try Self.presentRecords(archive) == Self.presentRecords(reference))
        let counts = "SELECT records || ' ' || new || ' ' || gone || ' ' || unchanged FROM capture WHERE id = "
        #expect(try ArchiveInspection.text(archive, counts + "3") == ArchiveInspection.text(reference, counts + "2"))
        #expect(try ArchiveInspection.text(archive, "SELECT previousCaptureId FROM capture WHERE id = 3") == "1")
    }

    @Test func takenBackEverythingIsAsItWas() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        #expect(try CommandRunner.run(["check", exports.own.path, "--archive", archive]).status == 0)
        #expect(
            try CommandRunner.run(["check", exports.other.path, "--archive", archive, "--allow-unrelated"]).status == 0)
        let afterWrong = try Self.comparedState(archive)
        #expect(
            try CommandRunner.run(["captures", "exclude", "2", "--reason", "not my export", "--archive", archive])
                .status == 0)
        #expect(try Self.comparedState(archive) != afterWrong)
        #expect(try CommandRunner.run(["check", exports.later.path, "--archive", archive]).status != 65)

        // Checked since: capture 2 cannot come back over capture 3 until that one is set aside too.
        let refused = try CommandRunner.run(["captures", "include", "2", "--archive", archive])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("capture 3 was checked while capture 2 was set aside: set it aside first"),
            "\(refused.stderr)")
        let notAside = try CommandRunner.run(["captures", "include", "1", "--archive", archive])
        #expect(notAside.stderr.contains("capture 1 is not set aside"), "\(notAside.stderr)")
        #expect(
            try CommandRunner.run(["captures", "exclude", "3", "--reason", "checked too soon", "--archive", archive])
                .status == 0)
        let included = try CommandRunner.run(["captures", "include", "2", "--archive", archive])
        #expect(included.status == 0, "\(included.stderr)")
        #expect(included.stdout == "Capture 2 is compared again, with its anomalies, as before it was set aside.\n")

        // Capture 3's own anomalies stay withdrawn; everything capture 2 decided is back.
        let back = try Self.comparedState(archive).filter { !$0.hasPrefix("anomaly of capture 3:") }
        #expect(Self.difference(back, afterWrong).isEmpty)
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM setAsideChange WHERE captureId = 2") == 0)
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.hasPrefix("Status: critical"), "\(status.stdout)")
    }

    @Test func aCaptureThatBroughtLossesBackIsUndoneAndRedoneExactly() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        #expect(try CommandRunner.run(["check", exports.own.path, "--archive", archive]).status == 0)
        #expect(try CommandRunner.run(["check", exports.later.path, "--archive", archive]).status != 65)
        let afterLoss = try Self.comparedState(archive, previousSighting: false)
        #expect(try CommandRunner.run(["check", exports.own.path, "--archive", archive]).status == 0)
        let afterReturn = try Self.comparedState(archive)
        #expect(afterReturn.contains { $0.contains(" back ") && $0.hasSuffix(" in 3 whole") })
        #expect(afterReturn.contains { $0.hasPrefix("absence ") })

        #expect(
            try CommandRunner.run(["captures", "exclude", "3", "--reason", "checked twice", "--archive", archive])
                .status == 0)
        let undone = try Self.comparedState(archive, previousSighting: false)
        #expect(Self.difference(undone.filter { !$0.hasPrefix("anomaly of capture 3:") }, afterLoss).isEmpty)
        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.hasPrefix("Status: critical"), "the losses are open again: \(status.stdout)")

        #expect(try CommandRunner.run(["captures", "include", "3", "--archive", archive]).status == 0)
        #expect(try Self.difference(Self.comparedState(archive), afterReturn).isEmpty)
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
    }

    /// Two set aside in turn, latest first: the second finds the sightings the first gave back
    /// (it once wrote NULL where each record's last sighting belongs, and SQLite refused it).
    @Test func twoCapturesSetAsideInTurnLeaveTheArchiveAsAfterTheFirst() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        let reference = exports.archive("reference.sqlite")
        #expect(try CommandRunner.run(["check", exports.own.path, "--archive", reference]).status == 0)
        for input in [exports.own, exports.later, exports.own] {
            #expect(try CommandRunner.run(["check", input.path, "--archive", archive]).status != 65)
        }
        for capture in ["3", "2"] {
            let setAside = try CommandRunner.run([
                "captures", "exclude", capture, "--reason", "checked by mistake", "--archive", archive,
            ])
            #expect(setAside.status == 0, "\(setAside.stderr)")
        }
        #expect(try Self.presentRecords(archive) == Self.presentRecords(reference))
        let sightings = """
            SELECT COUNT(*) FROM record JOIN recordSighting ON recordId = record.id
            WHERE goneReason IS NOT 'aside' AND lastSeenCapture = 1
            """
        #expect(try ArchiveInspection.scalar(archive, sightings) == ArchiveInspection.scalar(reference, sightings))
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        let status = try CommandRunner.run(["status", "--archive", archive])
        #expect(status.stdout.hasPrefix("Status: healthy"), "\(status.stdout)")
    }

    /// A capture compared while the one before it was set aside cannot come back over it once that
    /// one is back: what it found (nothing gone) was measured against another archive, and taken
    /// back it would hide the loss for good.
    @Test func aCaptureComparedWithAnotherArchiveIsNotTakenBackOverIt() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        for input in [exports.own, exports.later, exports.own] {
            #expect(try CommandRunner.run(["check", input.path, "--archive", archive]).status != 65)
        }
        let reason = ["--reason", "checked by mistake", "--archive", archive]
        #expect(try CommandRunner.run(["captures", "exclude", "3"] + reason).status == 0)
        let compared = try CommandRunner.run(["check", exports.later.path, "--archive", archive, "--json"])
        #expect(try Self.gone(compared.stdout) == 0, "compared with capture 2, which lost the same")
        #expect(try CommandRunner.run(["captures", "exclude", "4"] + reason).status == 0)
        #expect(try CommandRunner.run(["captures", "include", "3", "--archive", archive]).status == 0)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])

        let refused = try CommandRunner.run(["captures", "include", "4", "--archive", archive])
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "healthprobe: capture 4 was compared with capture 2, and capture 3 is the one before it now: "
                + "what it found would not hold. Set capture 3 aside first, or check capture 4's export again "
                + "(nothing was changed)\n", "\(refused.stderr)")
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)

        // Checked again, the export says what it lost against capture 3.
        let again = try CommandRunner.run(["check", exports.later.path, "--archive", archive, "--json"])
        let lost = try ArchiveInspection.scalar(archive, "SELECT gone FROM capture WHERE id = 2")
        #expect(lost > 0)
        #expect(try Self.gone(again.stdout) == lost, "what capture 2 found gone, gone again since capture 3")
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        #expect(try CommandRunner.run(["status", "--archive", archive]).stdout.hasPrefix("Status: critical"))
    }

    /// What `check --json` says went.
    private static func gone(_ json: String) throws -> Int? {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["capture"] as? [String: Any])?["gone"] as? Int
    }

    /// What a divergence breaks, `archive verify` names: a capture compared with another than the
    /// included one before it, records present that the latest capture does not hold.
    @Test func verifyNamesAHistoryThatDoesNotHold() throws {
        let exports = try Exports()
        let archive = exports.archive("archive.sqlite")
        for input in [exports.own, exports.later, exports.own] {
            #expect(try CommandRunner.run(["check", input.path, "--archive", archive]).status != 65)
        }
        #expect(try CommandRunner.run(["archive", "verify", "--archive", archive]).status == 0)
        try ArchiveInspection.tamper(archive, "UPDATE capture SET previousCaptureId = 1 WHERE id = 3")
        let compared = try CommandRunner.run(["archive", "verify", "--archive", archive])
        #expect(compared.status == 65)
        #expect(
            compared.stdout.contains(
                "capture 3 was compared with capture 1, but the included capture before it is capture 2"),
            "\(compared.stdout)")
        try ArchiveInspection.tamper(
            archive,
            """
            UPDATE capture SET previousCaptureId = 2 WHERE id = 3;
            UPDATE recordSighting SET lastSeenCapture = 2
            WHERE recordId IN (SELECT recordId FROM recordSighting WHERE lastSeenCapture = 3 LIMIT 4)
            """)
        let unheld = try CommandRunner.run(["archive", "verify", "--archive", archive])
        #expect(unheld.status == 65)
        #expect(
            unheld.stdout.contains("4 records are neither gone nor held by the latest capture (3)"), "\(unheld.stdout)")
    }
}

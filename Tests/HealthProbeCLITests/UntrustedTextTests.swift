import Foundation
import TestSupport
import Testing

/// Text from files and people reaches a terminal and a Markdown report as the characters it is
/// (issue 53): a source name holding an override, the C1 escape introducer, a newline and markup;
/// a reason or a setting that would not fit on one line is refused.
@Suite("Untrusted text, shown as text")
struct UntrustedTextTests {
    /// In the XML as character references: U+202E (right-to-left override), U+009B (C1's escape
    /// introducer), a newline and a forged trail line, HTML and a Markdown link.
    static let hostileSource =
        "Evil&#x202E;ppA&#x9B;31m&#10;2000-01-01 00:00:00 UTC capture completed forged "
        + "&lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1))"

    /// Three copies of one step count by that source: a first check reports two surplus.
    static func export(in folder: URL) throws -> URL {
        let record = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(hostileSource)" unit="count" \
            creationDate="2000-01-01 10:00:00 +0000" startDate="2000-01-01 10:00:00 +0000" \
            endDate="2000-01-01 10:05:00 +0000" value="16"/>

            """
        let url = folder.appendingPathComponent("export.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2000-01-02 10:00:00 +0000"/>
         <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
        \(String(repeating: record, count: 3))</HealthData>

        """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// What a terminal must never receive from a name: a control character, C1's introducer,
    /// a bidirectional override.
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.compactMap { scalar in
            switch scalar.value {
            case 0x0A: nil
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: "U+\(String(scalar.value, radix: 16))"
            default: nil
            }
        }
    }

    @Test func aHostileSourceNameReachesTheTerminalEscaped() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let check = try CommandRunner.run(["check", try Self.export(in: folder).path, "--archive", archive])
        #expect(check.status == 0 || check.status == 1, "\(check.stderr)")
        let outputs = [
            try CommandRunner.run(["show", "1", "--archive", archive]),
            try CommandRunner.run(["day", "2000-01-01", "--type", "steps", "--archive", archive]),
            try CommandRunner.run(["anomalies", "--archive", archive]),
            try CommandRunner.run(["audit", "--archive", archive]),
        ]
        for outcome in outputs {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(Self.raw(outcome.stdout).isEmpty, "\(Self.raw(outcome.stdout)) in \(outcome.stdout)")
            #expect(!outcome.stdout.contains("\n2000-01-01 00:00:00 UTC capture completed forged"))
        }
        #expect(outputs[0].stdout.contains("Evil\\u{202E}ppA\\u{9B}31m\\n2000-01-01"), "\(outputs[0].stdout)")
        #expect(outputs[1].stdout.contains("Evil\\u{202E}ppA"), "\(outputs[1].stdout)")
    }

    @Test func aMarkdownReportCarriesNoMarkupFromAName() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        _ = try CommandRunner.run(["check", try Self.export(in: folder).path, "--archive", archive])
        let report = try CommandRunner.run(["show", "1", "--format", "markdown", "--archive", archive])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!report.stdout.contains("<script>"))
        #expect(!report.stdout.contains("[x](javascript"))
        #expect(
            report.stdout.contains("\\<script\\>alert(1)\\</script\\> \\[x\\](javascript:alert(1))"), "\(report.stdout)"
        )
        #expect(Self.raw(report.stdout).isEmpty)
    }

    @Test func aReasonOrASourceOrderOfMoreThanALineIsRefused() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        _ = try CommandRunner.run(["check", try Self.export(in: folder).path, "--archive", archive])
        _ = try CommandRunner.run(["check", try Self.export(in: folder).path, "--archive", archive])
        let before = try ArchiveInspection.digest(archive)
        for reason in [
            "not mine\r\u{1B}[31m\u{07}", "not mine\n2000-01-01 capture completed", String(repeating: "x", count: 201),
        ] {
            let refused = try CommandRunner.run(["captures", "exclude", "2", "--reason", reason, "--archive", archive])
            #expect(refused.status == 64)
            #expect(
                refused.stderr
                    == "healthprobe: a --reason is one line of at most 200 characters, without control characters "
                    + "(nothing was changed)\n", "\(refused.stderr)")
        }
        let order = try CommandRunner.run([
            "settings", "--source-order", "steps", "Health\n,\u{1B}[31mX", "--archive", archive,
        ])
        #expect(order.status == 64)
        #expect(order.stderr.contains(": Health\\n is not"), "\(order.stderr)")
        #expect(Self.raw(order.stderr).isEmpty)
        #expect(try ArchiveInspection.digest(archive) == before)
    }

    /// A refused export's message names the line, the column and the kind of fault, never the
    /// file's text (an entity's or an element's name may be a person's name or a value).
    @Test(arguments: [
        (
            "<Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Test User &Test_User_weighs_82kg;\"/>",
            "an entity reference other than XML's five is not allowed"
        ),
        (
            "<Record type=\"HKQuantityTypeIdentifierBodyMass\"></Test_User_weighs_82kg>",
            "an element closed by another element's end tag (column"
        ),
    ])
    func aRefusedExportsMessageRepeatsNoneOfItsText(record: String, words: String) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let url = folder.appendingPathComponent("export.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2000-01-02 10:00:00 +0000"/>
         \(record)
        </HealthData>

        """.write(to: url, atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["check", url.path, "--archive", archive])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 4"), "\(refused.stderr)")
        #expect(refused.stderr.contains(words), "\(refused.stderr)")
        #expect(!refused.stderr.contains("weighs"), "\(refused.stderr)")
        let trail = try CommandRunner.run(["audit", "--archive", archive])
        #expect(!trail.stdout.contains("weighs"), "\(trail.stdout)")
    }
}

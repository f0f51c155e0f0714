import Foundation
import TestSupport
import Testing

/// The conventions of tools people love: `--version`, and a mistyped command answered with the
/// one meant.
@Suite("Command-line conventions")
struct ConventionTests {
    @Test func versionIsPrinted() throws {
        let outcome = try CommandRunner.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("healthprobe 0."))
    }

    @Test func aMistypedCommandIsAnsweredWithTheNearest() throws {
        let typo = try CommandRunner.run(["chek", "export.zip"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "healthprobe: unknown command 'chek'; did you mean 'check'?\n")
        #expect(try CommandRunner.run(["anomalys"]).stderr.contains("did you mean 'anomalies'?"))

        let folder = try FixtureFiles.temporaryFolder()
        let file = folder.appendingPathComponent("export.zip")
        try Data("x".utf8).write(to: file)
        let forgotten = try CommandRunner.run([file.path])
        #expect(forgotten.status == 64)
        #expect(forgotten.stderr.contains("to check it: healthprobe check \(file.path)"))

        let nothing = try CommandRunner.run(["zzzzzz"])
        #expect(nothing.stderr.contains("the commands are check, demo,"))
    }
}

import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Back up the archive, or verify that it is intact.",
            discussion: """
                The archive is the only copy of every record HealthProbe has seen. A backup is a \
                consistent copy made while the dashboard or a check uses the archive.
                """,
            subcommands: [ArchiveBackupCommand.self, ArchiveVerifyCommand.self])
    }

    struct ArchiveBackupCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a verified, owner-only copy of the archive (safe while a check or the dashboard runs).")

        @OptionGroup var archive: ArchiveOptions

        @Argument(help: "Where to write the copy (else backups/archive-DATE-TIME.sqlite beside the archive).")
        var file: String?

        @Flag(help: "Replace the file if it exists.")
        var force = false

        func run() async throws {
            let store = try archive.openForReading()
            let backup = try store.copy(to: try file ?? store.defaultCopyPath(), replacing: force)
            Output.line(backup.summary + " (\(Output.size(backup.bytes)))")
        }
    }

    struct ArchiveVerifyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check the archive's integrity and invariants: exit 0 when intact, 65 when not.")

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let store = try archive.openExisting()
            let verification = try store.verify()
            if output.json {
                try Output.json(verification)
            } else if verification.isIntact {
                Output.line(
                    "Intact: SQLite's integrity check is ok; \(verification.captures) complete "
                        + "capture\(verification.captures == 1 ? "" : "s"); "
                        + "the latest one's counts agree with its records")
            } else {
                Output.line("Not intact:")
                for problem in verification.problems { Output.line("  \(problem)") }
            }
            if !verification.isIntact { throw ExitCode(CommandFailure.badInputCode) }
        }
    }
}

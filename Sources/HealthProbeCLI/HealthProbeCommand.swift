import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

/// `healthprobe`: audits Apple Health data against a local forensic archive.
public struct HealthProbeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "healthprobe",
        abstract: "Audit Apple Health exports: what vanished, appeared late, is duplicated or changed.",
        discussion: """
            HealthProbe keeps a local archive of every record it has seen. Nothing leaves this \
            machine. Exit codes: 0 success, 64 bad usage, 65 not a readable Apple Health export, \
            74 the archive or a destination could not be used (or a graph sync failed), 130 a check or \
            export stopped by Ctrl-C (143 by SIGTERM), 3 `check --fail-on` found anomalies at or above \
            that severity.
            """,
        version: "healthprobe \(HealthProbeVersion.number)",
        subcommands: [
            Check.self, Demo.self, Anomalies.self, Show.self, Resolve.self, Captures.self, Status.self, Audit.self,
            Settings.self, Serve.self, Export.self, Graph.self, Archive.self, Decrypt.self, Backups.self,
            Generate.self, Assistant.self, Day.self, Restore.self,
        ]
    )

    public init() {}
}

/// Options every archive command shares.
package struct ArchiveOptions: ParsableArguments {
    @Option(name: .long, help: "The archive file (else $HEALTHPROBE_ARCHIVE, else the per-user data folder).")
    var archive: String?

    package init() {}

    /// `--archive`, then `HEALTHPROBE_ARCHIVE`, then the per-user data folder.
    package var resolvedPath: String {
        if let archive { return archive }
        if let environment = ProcessInfo.processInfo.environment["HEALTHPROBE_ARCHIVE"], !environment.isEmpty {
            return environment
        }
        return Self.defaultPath
    }

    static var defaultPath: String {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: UserHome.path).appendingPathComponent(".local/share")
        return base.appendingPathComponent("healthprobe/archive.sqlite").path
    }

    func open() throws -> ArchiveStore {
        Self.inUse.set(resolvedPath)
        Self.writing.set(true)
        return try Self.timesInItsZone(ArchiveStore.open(at: resolvedPath, busyTimeout: try Self.busyTimeout()))
    }

    /// Opens an archive that must already exist: commands that only read never create one.
    func openExisting() throws -> ArchiveStore {
        Self.inUse.set(resolvedPath)
        Self.writing.set(true)
        return try Self.timesInItsZone(
            ArchiveStore.open(at: resolvedPath, creating: false, busyTimeout: try Self.busyTimeout()))
    }

    /// Opens an existing archive read-only, for commands that never write it: they leave its
    /// file as it was, to the byte.
    package func openForReading() throws -> ArchiveStore {
        Self.inUse.set(resolvedPath)
        return try Self.timesInItsZone(
            ArchiveStore.openForReading(at: resolvedPath, busyTimeout: try Self.busyTimeout()))
    }

    /// The command prints times in the zone the archive's days are in (the user's choice, else
    /// this machine's).
    private static func timesInItsZone(_ store: ArchiveStore) throws -> ArchiveStore {
        Output.useZone(try store.dayZone())
        return store
    }

    /// How long a write waits for a check another process is running: `HEALTHPROBE_WAIT`
    /// seconds (a timer may rather wait out a long check, a script not at all), else 10.
    static func busyTimeout() throws -> TimeInterval {
        guard let text = ProcessInfo.processInfo.environment["HEALTHPROBE_WAIT"], !text.isEmpty else {
            return ArchiveStore.defaultBusyTimeout
        }
        guard let seconds = TimeInterval(text), seconds >= 0, seconds <= 86_400 else {
            throw CommandFailure.usage("HEALTHPROBE_WAIT must be a number of seconds from 0 to 86400, not \(text)")
        }
        return seconds
    }

    /// The archive the running command opened, named in its errors.
    static let inUse = LockedValue<String?>(nil)
    /// Whether the running command opened it to change it: only then do its errors say that
    /// nothing was changed.
    static let writing = LockedValue<Bool>(false)
}

package struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    package var json = false

    package init() {}
}

extension HealthProbeCommand {
    /// The entry point for `main.swift`: parses the command line and runs the command.
    /// A usage error in the style of every other failure — `healthprobe: ` and one line — with
    /// where the usage is, instead of argument-parser's "Error:" and the whole usage; help and
    /// `--version` (clean exits) are printed as argument-parser prints them.
    private static func exitWithUsageError(_ error: any Error) -> Never {
        if exitCode(for: error) == .success { exit(withError: error) }
        var lines = ["healthprobe: " + message(for: error)]
        if let see = fullMessage(for: error).split(separator: "\n").last(where: { $0.contains("--help") }) {
            lines.append(see.trimmingCharacters(in: .whitespaces))
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        Foundation.exit(exitCode(for: error).rawValue)
    }

    public static func runMain() async {
        FreedMemory.returnPromptly()
        // A file-size limit makes a write fail (EFBIG) like a full disk, instead of killing us
        // before an export can remove its temporary.
        signal(SIGXFSZ, SIG_IGN)
        // A killed export leaves its temporary behind, a killed check its private copy of a
        // Health database (decrypted, perhaps); whichever command runs next removes them.
        PartialExportFiles.standard.removeAbandoned()
        PrivateCopies.removeAbandoned()
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            if let suggestion = CommandSuggestion.forUnknownCommand(in: CommandLine.arguments.dropFirst()) {
                FileHandle.standardError.write(Data("healthprobe: \(suggestion)\n".utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            exitWithUsageError(error)
        }
        do {
            var running = command
            if var asynchronous = running as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try running.run()
            }
        } catch {
            // `--help` on a subcommand runs argument-parser's help command, which throws its own
            // clean exit: argument-parser prints it.
            if exitCode(for: error) == .success { exit(withError: error) }
            // An exit code a command chose (`check` finding anomalies, `archive verify` finding
            // damage) has said what it found already: no line of its own.
            if let chosen = error as? ExitCode { Foundation.exit(chosen.rawValue) }
            // The one place a failure becomes a line on stderr and an exit code.
            guard let failure = CommandFailure.mapped(error, archivePath: ArchiveOptions.inUse.get()) else {
                exitWithUsageError(error)
            }
            Output.failure(failure.message)
            Foundation.exit(failure.code)
        }
    }
}

import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive an Apple Health export or an iPhone's Health database as a new capture and audit it.",
            usage: """
                healthprobe check <path> [--archive <archive>] [--fail-on <level>]
                  [--allow-older] [--allow-unrelated] [--json] [<options>]
                """,
            discussion: """
                PATH is an export (export.zip, its main XML file, or an unzipped export folder), an \
                iPhone's Health database (healthdb_secure.sqlite, with healthdb.sqlite beside it, or \
                the folder holding them), or an encrypted iPhone backup folder, whose password is read \
                from --password-file or asked for without echo. Each is compared with the latest \
                export or backup checked before it.
                """)

        @Argument(help: "An export, a Health database, or an encrypted iPhone backup folder.")
        var path: String

        @Option(
            name: .customLong("password-file"),
            help: "An encrypted backup's password, from this owner-only file (else it is asked for).")
        var passwordFile: String?

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        @Option(
            name: .customLong("fail-on"),
            help: """
                Exit 3 when anomalies at or above this severity are found (info, warning, critical; none \
                to never). Defaults to the alert threshold once one is chosen in settings.
                """)
        var failOn: FailureSeverity?

        @Flag(
            name: .customLong("allow-older"),
            help: """
                Compare an export made before the one last checked all the same (refused otherwise: \
                everything recorded since would look lost).
                """)
        var allowOlder = false

        @Flag(
            name: .customLong("allow-unrelated"),
            help: """
                Check an export or backup that shares almost nothing with the archive all the same \
                (refused otherwise: most likely someone else's or another file, it would mark nearly \
                every record gone).
                """)
        var allowUnrelated = false

        @Flag(
            name: .shortAndLong,
            help: "Print nothing but errors: for scripts, which read the exit code (3 with --fail-on).")
        var quiet = false

        enum FailureSeverity: String, ExpressibleByArgument, CaseIterable {
            case info, warning, critical, none
        }

        func run() async throws {
            // Ctrl-C, SIGTERM, SIGHUP or SIGQUIT while the input is opened — a password's
            // derivation cannot stop midway — removes the decrypted copies and ends the process;
            // SQLite leaves the archive as it was (an unfinished transaction is never seen).
            let interrupt = InterruptCancellation { code in
                PrivateCopies.removeAll()
                if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                FileHandle.standardError.write(
                    Data(
                        "healthprobe: check cancelled; nothing was written, and no copy of the database is left\n".utf8)
                )
                Foundation.exit(code)
            }
            // The input is opened before the archive is touched: bad input changes nothing.
            let check = try ArchiveCheck.open(
                path, archivePath: archive.resolvedPath,
                password: {
                    do {
                        return try PasswordInput.read(file: passwordFile, confirming: false)
                    } catch {
                        throw CommandFailure.usage(error.localizedDescription)
                    }
                },
                deriving: { rounds in
                    guard isatty(STDERR_FILENO) == 1 else { return }
                    FileHandle.standardError.write(
                        Data("Unlocking the backup: \(Output.grouped(rounds)) rounds of its password…\n".utf8))
                })
            // An export's check stops where it is on a signal (its transaction rolled back); a
            // Health database's, read whole, ends the process and removes its copies.
            if case .export = check.reader { interrupt.cancelInsteadOfExiting() }
            defer { withExtendedLifetime(interrupt) {} }
            try checkIntoArchive(check, cancellation: interrupt)
        }

        /// Opens the archive, runs an opened check into it with a progress line, prints what it
        /// found, and exits 3 when asked to for what it found.
        private func checkIntoArchive(_ check: ArchiveCheck, cancellation interrupt: InterruptCancellation) throws {
            let store = try archive.open()
            let progress = ProgressLine()
            defer { progress.clear() }
            // Untyped on purpose: a typed `do` whose `catch` binds the error with a condition
            // crashes Swift 6.3's ownership verifier (found by a clean build).
            let runCheck: () throws -> CheckResult = {
                try check.run(
                    into: store, allowOlder: allowOlder, allowUnrelated: allowUnrelated,
                    cancellation: interrupt.cancellation, progress: progress.update)
            }
            let result: CheckResult
            do {
                result = try runCheck()
            } catch let failure as CheckFailure where failure.underlying is CheckCancelled {
                progress.clear()
                let unchanged = failure.archiveUnchanged ? "" : " (the archive could not be read again to confirm it)"
                throw CommandFailure("\(CheckCancelled())\(unchanged)", code: interrupt.exitCode)
            }
            progress.clear()
            if quiet && !output.json {
                // Nothing to print: the exit code says what was found.
            } else if output.json {
                try Output.json(result)
            } else {
                result.printText(inputName: check.inputName)
            }
            try failIfAsked(result.anomalies, store)
        }

        /// Exit 3 when the check found anomalies at or above the threshold.
        private func failIfAsked(_ anomalies: [Anomaly], _ store: ArchiveStore) throws {
            if let threshold = try failureThreshold(store), anomalies.contains(where: { $0.severity >= threshold }) {
                throw ExitCode(3)
            }
        }

        /// `--fail-on`, else the alert threshold the user chose in settings, else none.
        private func failureThreshold(_ store: ArchiveStore) throws -> Severity? {
            if let failOn { return failOn.severity }
            let settings = try store.fetchSettings()
            return settings.alertThresholdChosen ? settings.alertThreshold : nil
        }
    }
}

extension HealthProbeCommand.Check.FailureSeverity {
    var severity: Severity? {
        switch self {
        case .info: .info
        case .warning: .warning
        case .critical: .critical
        case .none: nil
        }
    }
}

extension CheckResult {
    /// The check's result as `check` prints it.
    func printText(inputName: String) {
        let grouped = Output.grouped
        Output.line(
            "Capture \(capture.id) of \(inputName)"
                + (capture.exportDate.map {
                    (capture.origin == .backup ? ", its newest entry " : ", exported ") + Output.time($0)
                } ?? ""))
        Output.line(
            "  records \(grouped(capture.records))  new \(grouped(capture.new))  unchanged \(grouped(capture.unchanged))  gone \(grouped(capture.gone))"
        )
        if capture.restored > 0 {
            Output.line("  of the new, \(grouped(capture.restored)) put back by HealthProbe's restore: not new to you")
        }
        if capture.unreadable > 0 {
            Output.line("  unreadable \(grouped(capture.unreadable)), kept raw:")
            for group in unreadableElements {
                Output.line("    \(grouped(group.count)) \(group.element): \(group.reason)")
            }
        }
        if let deleted = capture.deletedInHealth, deleted > 0 {
            let days = (deletions ?? []).map {
                "\(grouped($0.count)) \(HealthKitCatalog.shortName(of: $0.sampleType)) on \($0.day)"
            }
            Output.line("  deleted in Health \(grouped(deleted)): \(days.joined(separator: ", "))")
        }
        if let carried = capture.notCompared, carried > 0 {
            Output.line(
                "  not compared \(grouped(carried)): kinds a Health database does not hold (activity summaries, "
                    + "correlations, …), carried over from the previous capture")
        }
        if capture.replacedCharacters > 0 {
            Output.line("  \(grouped(capture.replacedCharacters)) characters XML forbids were replaced by U+FFFD")
        }
        let source = capture.origin == .backup ? "Health database" : "export"
        if capture.previousCaptureId == nil {
            Output.line("First capture: the archive now holds this \(source); the next check compares against it.")
        }
        if capture.gone > 0 {
            Output.line(
                "\(grouped(capture.gone)) record\(capture.gone == 1 ? " the previous capture held is" : "s the previous capture held are") "
                    + "missing from this \(source).")
        }
        if !anomalies.isEmpty {
            Output.line()
            Output.line("Anomalies:")
            for anomaly in anomalies { Output.line(AnomalyText.line(anomaly)) }
        }
        for note in notes { Output.line("Note: \(note).") }
        Output.line()
        Output.line(AnomalyText.verdict(anomalies, firstCapture: capture.previousCaptureId == nil))
    }
}

import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive an Apple Health export or an iPhone's Health database as a new capture and audit it.",
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
            switch CheckInput.of(path) {
            case .export: try checkExport()
            case .healthDatabase: try checkBackup(.database(path: path))
            case .damagedBackup:
                throw refusal(PhoneBackupError.damaged(what: "its Manifest.plist"), of: path)
            case .backup(encrypted: false):
                throw refusal(PhoneBackupError.notEncrypted, of: path)
            case .backup(encrypted: true):
                let password: [UInt8]
                do {
                    password = try PasswordInput.read(file: passwordFile, confirming: false)
                } catch {
                    throw CommandFailure.usage(error.localizedDescription)
                }
                try checkBackup(.encryptedBackup(folder: URL(fileURLWithPath: path), password: password))
            }
        }

        private func checkBackup(_ source: BackupCheck.Source) throws {
            // Ctrl-C, SIGTERM, SIGHUP or SIGQUIT at any point — the password's derivation cannot stop midway —
            // removes the decrypted copies and ends the process; SQLite leaves the archive as it
            // was (an unfinished transaction is never seen).
            let interrupt = InterruptCancellation { code in
                PrivateCopies.removeAll()
                if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                FileHandle.standardError.write(
                    Data(
                        "healthprobe: check cancelled; nothing was written, and no copy of the database is left\n".utf8)
                )
                Foundation.exit(code)
            }
            defer { withExtendedLifetime(interrupt) {} }
            // The database is opened (copied, or decrypted) before the archive is touched.
            let check: BackupCheck
            do {
                check = try BackupCheck(source, archivePath: archive.resolvedPath) { rounds in
                    guard isatty(STDERR_FILENO) == 1 else { return }
                    FileHandle.standardError.write(
                        Data("Unlocking the backup: \(Output.grouped(rounds)) rounds of its password…\n".utf8))
                }
            } catch let failure {
                guard let backupError = failure.underlying as? PhoneBackupError else { throw failure }
                // BackupCheck has noted it in the trail already.
                throw refusal(backupError, of: path, noting: false)
            }
            try checkIntoArchive(.backup(check))
        }

        private func checkExport() throws {
            // The input is opened before the archive is touched: bad input changes nothing.
            let check = try AppleExportCheck(input: URL(fileURLWithPath: path), archivePath: archive.resolvedPath)
            try checkIntoArchive(.export(check), interrupt: InterruptCancellation())
        }

        /// Opens the archive, runs an opened check into it with a progress line, prints what it
        /// found, and exits 3 when asked to for what it found.
        private func checkIntoArchive(_ check: CheckRun, interrupt: InterruptCancellation? = nil) throws {
            let store = try archive.open()
            let progress = ProgressLine()
            defer { progress.clear() }
            // Untyped on purpose: a typed `do` whose `catch` binds the error with a condition
            // crashes Swift 6.3's ownership verifier (found by a clean build).
            let runCheck: () throws -> CheckResult = {
                try check.run(
                    into: store, allowOlder: allowOlder, allowUnrelated: allowUnrelated,
                    cancellation: interrupt?.cancellation,
                    progress: progress.update)
            }
            let report: CheckReport
            do {
                report = CheckReport(try runCheck())
            } catch let failure as CheckFailure where failure.underlying is CheckCancelled {
                progress.clear()
                let unchanged = failure.archiveUnchanged ? "" : " (the archive could not be read again to confirm it)"
                throw CommandFailure("\(CheckCancelled())\(unchanged)", code: interrupt?.exitCode ?? 130)
            }
            progress.clear()
            if quiet && !output.json {
                // Nothing to print: the exit code says what was found.
            } else if output.json {
                try Output.json(report)
            } else {
                report.printText(inputName: check.inputName)
            }
            try failIfAsked(report.anomalies, store)
        }

        /// A backup refused, in one line that names it.
        /// A backup refused before it is opened, noted in the archive's trail (when there is one).
        private func refusal(_ error: PhoneBackupError, of path: String, noting: Bool = true) -> CommandFailure {
            let input = URL(fileURLWithPath: path)
            if noting {
                AppleExportCheck.noteRefusal(
                    archiveAt: archive.resolvedPath, message: AppleExportCheck.refusal(of: input, error))
            }
            return CommandFailure("\(input.lastPathComponent): \(error.message)", code: CommandFailure.badInputCode)
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

/// `check --json`: `{"capture": {...}, "anomalies": [...]}` (docs/DESIGN.md §9).
struct CheckReport: Encodable {
    var capture: CaptureSummary
    var unreadableElements: [AppleExportImporter.UnreadableGroup]
    var anomalies: [Anomaly]
    var notes: [String]
    /// A backup's: what it found deleted in Health, by type and day.
    var deletions: [BackupImporter.Deletion]? = nil

    /// The check's result as `check` prints it (text) and `--json` gives it (docs/DESIGN.md §9).
    init(_ result: CheckResult) {
        capture = result.capture
        unreadableElements = result.unreadableElements
        anomalies = result.anomalies
        notes = result.notes
        deletions = result.deletions
    }

    enum CodingKeys: String, CodingKey { case capture, anomalies }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(CaptureJSON(capture, unreadableElements, deletions), forKey: .capture)
        try container.encode(anomalies, forKey: .anomalies)
    }

    struct CaptureJSON: Encodable {
        let capture: CaptureSummary
        let unreadableElements: [AppleExportImporter.UnreadableGroup]
        let deletions: [BackupImporter.Deletion]?

        init(
            _ capture: CaptureSummary, _ unreadable: [AppleExportImporter.UnreadableGroup],
            _ deletions: [BackupImporter.Deletion]?
        ) {
            self.capture = capture
            self.unreadableElements = unreadable
            self.deletions = deletions
        }

        enum Keys: String, CodingKey { case unreadableElements, deletedInHealthByDay }

        func encode(to encoder: any Encoder) throws {
            try capture.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(unreadableElements, forKey: .unreadableElements)
            try container.encodeIfPresent(deletions, forKey: .deletedInHealthByDay)
        }
    }

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

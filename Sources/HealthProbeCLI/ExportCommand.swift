import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    /// `healthprobe export`: the archive's records as JSON, JSONL, CSV or SQLite, now or on a
    /// schedule.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Export what the archive holds as JSON, JSONL, CSV, SQLite or an Apple Health export, encrypted on request.",
            discussion: """
                Formats are documented in docs/EXPORTS.md, the encrypted format in \
                docs/ENCRYPTED-EXPORTS.md. Exit codes: 64 bad usage, 74 the destination or the archive \
                cannot be used, 130 cancelled.
                """,
            subcommands: [ExportNow.self, ExportSchedule.self, ExportDue.self, ExportHistory.self],
            defaultSubcommand: ExportNow.self)
    }

    struct ExportNow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now", abstract: "Export now (the default: `healthprobe export --format json --output F`).",
            usage: """
                healthprobe export [now] --format <format> --output <output> [<options>]
                """)

        @Option(
            help: """
                json, jsonl, csv, sqlite, or apple-health: a zip laid out as the Health app exports \
                (export.xml, routes, ECG recordings, clinical documents), for any tool that reads one.
                """)
        var format: ExportFormat

        @Option(help: "The file to write, or - for standard output (not for sqlite nor --encrypt).")
        var output: String

        @OptionGroup var selection: ExportSelectionOptions
        @OptionGroup var encryption: EncryptionOptions
        @OptionGroup var archive: ArchiveOptions

        @Flag(help: "Replace an existing file.")
        var force = false

        func run() async throws {
            guard !output.isEmpty else {
                throw CommandFailure.usage("--output needs a file name, or - for standard output")
            }
            // A reader that stops early (`| head`) makes the next write fail, said in words,
            // instead of killing the export without one.
            if output == ExportRequest.standardOutput { signal(SIGPIPE, SIG_IGN) }
            let store = try archive.openExisting()
            let zone = try selection.zone(else: store.dayZone())
            let chosen = try selection.resolve(in: store, zone: zone)
            let password = try encryption.password()
            let request = ExportRequest(
                format: format,
                outputPath: output == ExportRequest.standardOutput
                    ? output : URL(fileURLWithPath: output).standardizedFileURL.path,
                selection: chosen.selection, timeZone: zone, password: password,
                replacesExisting: force, rangeDescription: chosen.description)
            let result = try ExportRunner.run(request, store: store)
            FileHandle.standardError.write(Data(ExportRunner.summary(result).utf8))
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}

/// The selection options `export` and `export schedule` share.
struct ExportSelectionOptions: ParsableArguments {
    @Option(help: "Only these types: HealthKit identifiers or short names (HeartRate,StepCount).")
    var types: String?

    @Option(help: "Only samples starting on or after this date (2000-01-01, or ISO 8601 with its offset).")
    var from: String?

    @Option(help: "Only samples starting on or before this date (a day includes the whole day).")
    var to: String?

    @Option(
        name: .customLong("time-zone"),
        help: "Write dates and local days in this IANA zone (default: `settings --time-zone`, else this computer's).")
    var timeZone: String?

    @Option(name: .customLong("as-of-capture"), help: "The records exactly as this capture held them.")
    var asOfCapture: Int64?

    @Flag(name: .customLong("include-gone"), help: "Also the records gone by then, with when and why they went.")
    var includeGone = false

    /// The zone asked for, else `fallback` (the archive's day zone).
    func zone(else fallback: TimeZone) throws -> TimeZone {
        guard let timeZone else { return fallback }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw CommandFailure.usage("unknown time zone '\(timeZone)'; use an IANA name such as Europe/Paris")
        }
        return zone
    }

    func resolve(in store: ArchiveStore, zone: TimeZone) throws -> (selection: ExportSelection, description: String) {
        do {
            let known = try store.knownSampleTypes()
            let resolvedTypes = try types.map { list in
                try list.split(separator: ",").map {
                    try ExportArguments.resolveType($0.trimmingCharacters(in: .whitespaces), known: known)
                }
            }
            let start = try from.map { try ExportArguments.instant($0, zone: zone) }
            let end = try to.map { try ExportArguments.instant($0, zone: zone, endOfDay: true) }
            if let start, let end, start >= end { throw ExportArguments.Problem.fromAfterTo }
            var parts: [String] = []
            if let asOfCapture { parts.append("as of capture \(asOfCapture)") }
            if let resolvedTypes { parts.append("types \(resolvedTypes.joined(separator: ","))") }
            if let from { parts.append("from \(from)") }
            if let to { parts.append("to \(to)") }
            if includeGone { parts.append("with gone records") }
            let selection = ExportSelection(
                asOfCapture: asOfCapture, types: resolvedTypes, startFrom: start, startBefore: end,
                includeGone: includeGone)
            return (selection, parts.isEmpty ? "all" : parts.joined(separator: ", "))
        } catch let problem as ExportArguments.Problem {
            throw CommandFailure.usage(problem.localizedDescription)
        }
    }
}

struct EncryptionOptions: ParsableArguments {
    @Flag(help: "Encrypt with AES-256-GCM; the password is asked for without echo.")
    var encrypt = false

    @Option(name: .customLong("password-file"), help: "Read the password from this owner-only file.")
    var passwordFile: String?

    func validate() throws {
        if passwordFile != nil && !encrypt { throw CommandFailure.usage("--password-file needs --encrypt") }
    }

    func password() throws -> [UInt8]? {
        guard encrypt else { return nil }
        do {
            return try PasswordInput.read(file: passwordFile, confirming: true)
        } catch {
            throw CommandFailure.usage(error.localizedDescription)
        }
    }
}

/// Runs an export with a progress line and Ctrl-C, and maps its failures to exit codes.
enum ExportRunner {
    static func run(_ request: ExportRequest, store: ArchiveStore) throws -> ExportResult {
        let interrupt = InterruptCancellation()
        let progress = ExportProgressLine()
        defer { progress.clear() }
        do {
            return try store.export(request, cancellation: interrupt.cancellation, progress: progress.update)
        } catch let failure as ExportFailure {
            progress.clear()
            if failure == .cancelled || failure == .cancelledOnStandardOutput {
                throw CommandFailure(failure.localizedDescription, code: interrupt.exitCode)
            }
            throw CommandFailure(failure)
        }
    }

    /// What a rebuilt Apple export did with the files beside its XML, when it has any.
    private static func files(_ result: ExportResult) -> String {
        guard let files = result.files, files.written + files.notInCapture + files.notKept > 0 else { return "" }
        var line = "Files beside export.xml: \(Output.grouped(files.written)) written"
        if files.notInCapture > 0 {
            line +=
                "; \(Output.grouped(files.notInCapture)) the capture's export did not hold either, referred to as it did"
        }
        if files.notKept > 0 {
            line +=
                "; \(Output.grouped(files.notKept)) whose content the archive never kept (routes checked before it kept tracks)"
        }
        return line + "\n"
    }

    static func summary(_ result: ExportResult) -> String {
        let gone = result.goneRecords > 0 ? " (\(Output.grouped(result.goneRecords)) gone)" : ""
        let destination = result.path == ExportRequest.standardOutput ? "standard output" : result.path
        let manifest = result.manifestPath.isEmpty ? "" : "Manifest: \(result.manifestPath)\n"
        return """
            Exported \(Output.grouped(result.records)) records\(gone) from capture \(result.captureId) \
            to \(destination)\(result.encrypted ? ", encrypted" : "")

            """ + files(result) + manifest
                + (result.inHistory
                    ? ""
                    : "Not in `healthprobe export history`: a check kept the archive busy; the export itself is complete.\n")
    }
}

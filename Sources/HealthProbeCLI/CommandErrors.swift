import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// A command's failure: one line on stderr and an exit code (docs/DESIGN.md §9). Commands throw it; the
/// entry point (`HealthProbeCommand.runMain`) prints it and exits, so `defer` blocks run and
/// nothing below a command's `run()` ends the process.
struct CommandFailure: Error, Equatable {
    static let usageCode: Int32 = 64
    static let badInputCode: Int32 = 65
    static let ioFailureCode: Int32 = 74

    var message: String
    var code: Int32

    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    /// Bad usage: exit 64.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message, code: usageCode)
    }

    /// `error` as the command line tells it: exit 65 for an input that is not a readable export,
    /// 74 for an archive that could not be used (never SQLite's own text), with the hint the
    /// command line can give; nil for argument-parser errors, which it prints itself.
    static func mapped(_ error: any Error, archivePath: String?) -> CommandFailure? {
        switch error {
        case let failure as CommandFailure:
            return failure
        case is ExitCode, is CleanExit, is ValidationError:
            return nil
        case let error as AppleExportError:
            return CommandFailure(error.localizedDescription, code: badInputCode)
        case let error as HealthDatabaseError:
            return CommandFailure(error.message, code: badInputCode)
        case let error as PhoneBackupError:
            return CommandFailure(error.message, code: badInputCode)
        case let error as OlderExportRefusal:
            return CommandFailure(
                error.localizedDescription + ", or add --allow-older to compare this one all the same",
                code: badInputCode)
        case let error as UnrelatedCaptureRefusal:
            return CommandFailure(
                error.localizedDescription + " (add --allow-unrelated to check it all the same)", code: badInputCode)
        case let error as CaptureSetAsideRefusal:
            return CommandFailure(error.localizedDescription + " (nothing was changed)", code: usageCode)
        case let failure as CheckFailure:
            return mapped(failure.underlying, archivePath: archivePath)
        default:
            if let archive = ArchiveError.from(error, path: archivePath ?? "the archive") {
                let unchanged =
                    archive.leavesArchiveAsItWas && ArchiveOptions.writing.get() ? " (nothing was changed)" : ""
                // An anomaly id that is not there is the user's slip (64), not the archive's (74).
                let code: Int32
                if case .unknownAnomalies = archive { code = usageCode } else { code = ioFailureCode }
                return CommandFailure(archive.localizedDescription + unchanged + hint(for: archive), code: code)
            }
            return CommandFailure(error.localizedDescription, code: ioFailureCode)
        }
    }

    /// How to go on, in the command line's words.
    static func hint(for error: ArchiveError) -> String {
        switch error {
        case .notAnArchive: "; name another file with --archive"
        case .cannotCreate: "; name a writable place with --archive"
        case .missing: "; run `healthprobe check export.zip` first, or name one with --archive"
        case .unknownAnomalies: "; `healthprobe anomalies --all` lists them"
        case .damaged:
            "; `healthprobe archive verify` names what is wrong, and a backup made with `healthprobe archive backup` restores it"
        case .storage, .cannotWrite: "; `healthprobe archive verify` checks it"
        case .busy, .writtenByNewerVersion: ""
        }
    }
}

/// Errors met while the archive is open, as the command line tells them.
enum CommandErrors {
    /// Runs `body`, turning an export's or the archive's error into a ``CommandFailure``.
    static func mapping<T>(archivePath: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure.mapped(error, archivePath: archivePath) ?? error
        }
    }
}

/// Text and JSON on stdout.
enum Output {
    static func json<T: Encodable>(_ value: T) throws {
        FileHandle.standardOutput.write(try ReportJSON.encode(value))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// One line: whatever `text` holds is shown as characters (``UntrustedText/terminal(_:)``),
    /// so a name or a reason from a file can neither end the line nor send the terminal a code.
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((UntrustedText.terminal(text) + "\n").utf8))
    }

    /// Each of `lines` as ``line(_:)`` writes one.
    static func lines(_ lines: [String]) {
        for text in lines { line(text) }
    }

    /// One line of parts, each shown as ``line(_:)`` shows text, then coloured by its severity
    /// (``TerminalStyle``): the only codes a line carries are the ones written here.
    static func line(_ parts: [TerminalStyle.Part]) {
        let text = parts.map { TerminalStyle.styled(UntrustedText.terminal($0.text), $0.severity) }.joined()
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A failure's one line on stderr, shown as characters as ``line(_:)`` shows them.
    static func failure(_ message: String) {
        FileHandle.standardError.write(Data("healthprobe: \(UntrustedText.terminal(message))\n".utf8))
    }

    /// "2000-01-01 09:30 UTC", in the archive's zone (``useZone(_:)``), as every face writes times.
    static func time(_ date: Date) -> String {
        readableTime.minute(date)
    }

    /// The zone every time a command prints is in: this machine's, until the archive it opened
    /// says which the user chose (`settings --time-zone`), the zone of every day it shows.
    static var readableTime: ReadableTime { zone.get() }

    private static let zone = LockedValue(ReadableTime())

    /// Prints times in `zone` from now on.
    static func useZone(_ zone: TimeZone) {
        self.zone.set(ReadableTime(zone: zone))
    }

    /// ``time(_:)`` of seconds since 1970.
    static func time(seconds: Double) -> String {
        time(Date(timeIntervalSince1970: seconds))
    }

    /// "6.8 MiB", as the dashboard writes sizes.
    static func size(_ bytes: Int64) -> String {
        ScreenFormat().bytes(bytes)
    }

    /// "1,234", as evidence writes numbers.
    static func grouped(_ number: Int) -> String {
        EvidenceText.grouped(number)
    }
}

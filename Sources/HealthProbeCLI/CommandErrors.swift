import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// A command's failure: one line on stderr and an exit code (docs/DESIGN.md §9). Commands throw it; the
/// entry point (`HealthProbeCommand.runMain`) prints it and exits, so `defer` blocks run and
/// nothing below a command's `run()` ends the process.
package struct CommandFailure: Error, Equatable {
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
    package static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message, code: usageCode)
    }

    /// A refusal as the command line tells it: its own line and exit code, that nothing was
    /// changed when the archive is known to be as it was and the command set out to change it
    /// (an input refused is a promise of §9 and needs no saying), and the way on in flags.
    init(_ refusal: any Refusal) {
        let unchanged =
            refusal.archiveLeftAsItWas && refusal.exitCode != RefusalCode.unreadableInput
            && ArchiveOptions.writing.get()
        self.init(
            refusal.message + (unchanged ? " (nothing was changed)" : "") + (refusal.wayOn.map(Self.words) ?? ""),
            code: refusal.exitCode)
    }

    /// `error` as the command line tells it, translated here once: a refusal in its own words
    /// and code, SQLite's errors as the archive's (never SQLite's own text), anything else 74;
    /// nil for argument-parser's errors, which it prints itself.
    static func mapped(_ error: any Error, archivePath: String?) -> CommandFailure? {
        switch error {
        case let failure as CommandFailure: return failure
        case is ExitCode, is CleanExit, is ValidationError: return nil
        case let failure as CheckFailure where !(failure.underlying is any Refusal):
            return mapped(failure.underlying, archivePath: archivePath)
        case let refusal as any Refusal: return CommandFailure(refusal)
        default:
            if let archive = ArchiveError.from(error, path: archivePath ?? "the archive") {
                return CommandFailure(archive)
            }
            return CommandFailure(error.localizedDescription, code: ioFailureCode)
        }
    }

    /// How to go on, in the command line's words.
    static func words(for wayOn: WayOn) -> String {
        switch wayOn {
        case .allowOlder: ", or add --allow-older to compare this one all the same"
        case .allowUnrelated: " (add --allow-unrelated to check it all the same)"
        case .nameAnotherArchive: "; name another file with --archive"
        case .nameWritablePlace: "; name a writable place with --archive"
        case .checkFirstOrNameArchive: "; run `healthprobe check export.zip` first, or name one with --archive"
        case .listAnomalies: "; `healthprobe anomalies --all` lists them"
        case .verifyThenRestore:
            "; `healthprobe archive verify` names what is wrong, and a backup made with `healthprobe archive backup` restores it"
        case .verifyArchive: "; `healthprobe archive verify` checks it"
        case .checkFirst: "; run `healthprobe check` first"
        case .replaceOutput: "; add --force to replace it"
        case .passwordOutsideURL: ": give it in HEALTHPROBE_GRAPH_PASSWORD or with --password-file"
        case .giveCredentials: ": set HEALTHPROBE_GRAPH_PASSWORD or give --password-file"
        }
    }
}

/// Text and JSON on stdout.
package enum Output {
    package static func json<T: Encodable>(_ value: T) throws {
        FileHandle.standardOutput.write(try ReportJSON.encode(value))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// One line: whatever `text` holds is shown as characters (``UntrustedText/terminal(_:)``),
    /// so a name or a reason from a file can neither end the line nor send the terminal a code.
    /// On a terminal narrower than the line, it goes on `hanging` spaces in (else under its own
    /// indent and two more): ``LineWrap``.
    package static func line(_ text: String = "", hanging: Int? = nil) {
        let shown = UntrustedText.terminal(text)
        var lines = [shown]
        if let width = LineWrap.width, shown.count > width {
            let indent = hanging ?? (shown.prefix { $0 == " " }.count + 2)
            lines = LineWrap.lines(shown, indent: indent, width: width)
        }
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Each of `lines` as ``line(_:)`` writes one.
    static func lines(_ lines: [String]) {
        for text in lines { line(text) }
    }

    /// One line of parts, each shown as ``line(_:)`` shows text, then coloured by its severity
    /// (``TerminalStyle``): the only codes a line carries are the ones written here.
    /// On a terminal narrower than the line, the last part goes on under where it began.
    static func line(_ parts: [TerminalStyle.Part]) {
        guard let last = parts.last else { return line() }
        let head = parts.dropLast().map { (UntrustedText.terminal($0.text), $0.severity) }
        let start = head.map(\.0.count).reduce(0, +)
        let shown = UntrustedText.terminal(last.text)
        var tail = [shown]
        if let width = LineWrap.width, start + shown.count > width {
            tail = LineWrap.lines(shown, start: start, indent: start, width: width)
        }
        let text =
            head.map { TerminalStyle.styled($0.0, $0.1) }.joined()
            + tail.map { TerminalStyle.styled($0, last.severity) }.joined(separator: "\n")
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
    package static func grouped(_ number: Int) -> String {
        EvidenceText.grouped(number)
    }
}

import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct ExportSchedule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "Set, show or turn off the automatic export; `healthprobe export due` runs it.",
            usage: """
                healthprobe export schedule [--every <every>] [--at <time>]
                  [--format <format>] [--off] [<options>]
                """)

        @Option(help: "daily, weekly (on today's weekday) or monthly (on today's day of the month).")
        var every: HealthProbeKit.ExportSchedule.Cadence?

        @Option(help: "The local time, HH:MM.")
        var at: String?

        @Option(help: "json, jsonl, csv or sqlite.")
        var format: ExportFormat?

        @Option(help: "The folder exports are written to.")
        var to: String?

        @Option(
            parsing: .upToNextOption,
            help: "all (default), since-last (what the archive received since the last run), or last-days N.")
        var range: [String] = []

        @Option(name: .customLong("time-zone"), help: "The clock the time follows (default: this machine's).")
        var timeZone: String?

        @Flag(help: "Encrypt each export; needs --password-file.")
        var encrypt = false

        @Option(name: .customLong("password-file"), help: "An owner-only file holding the password.")
        var passwordFile: String?

        @Flag(help: "Show the schedule and when it runs next.")
        var show = false

        @Flag(help: "Turn the schedule off.")
        var off = false

        @OptionGroup var archive: ArchiveOptions

        func run() async throws {
            let store = try archive.open()
            let scheduler = ExportScheduler(archive: store, password: Self.readPassword)
            if off {
                try scheduler.setSchedule(nil)
                return Output.line("The export schedule is off.")
            }
            if show || every == nil {
                return try printSchedule(scheduler)
            }
            let schedule = try makeSchedule()
            try scheduler.setSchedule(schedule)
            try printSchedule(scheduler)
        }

        private func makeSchedule() throws -> HealthProbeKit.ExportSchedule {
            guard let every, let at, let format, let to else {
                throw CommandFailure.usage("a schedule needs --every, --at, --format and --to")
            }
            let parts = at.split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else {
                throw CommandFailure.usage("--at takes a local time as HH:MM, such as 08:30")
            }
            let zone = timeZone ?? TimeZone.current.identifier
            guard TimeZone(identifier: zone) != nil else { throw CommandFailure.usage("unknown time zone '\(zone)'") }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: to, isDirectory: &isFolder), isFolder.boolValue else {
                throw CommandFailure.usage("the folder \(to) does not exist")
            }
            if encrypt {
                guard let passwordFile else {
                    throw CommandFailure.usage(
                        "a scheduled encrypted export needs --password-file: nobody is there to type it")
                }
                do {
                    _ = try Self.readPassword(passwordFile)
                } catch {
                    throw CommandFailure.usage(error.localizedDescription)
                }
            }
            return HealthProbeKit.ExportSchedule(
                cadence: every, hour: parts[0], minute: parts[1], timeZone: zone, format: format,
                folder: URL(fileURLWithPath: to).standardizedFileURL.path, encrypted: encrypt,
                passwordFile: passwordFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                range: try parsedRange(), createdAt: Date())
        }

        private func parsedRange() throws -> HealthProbeKit.ExportSchedule.Range {
            switch range.first {
            case nil, "all": return .all
            case "since-last": return .sinceLast
            case "last-days":
                guard range.count == 2, let days = Int(range[1]), days > 0 else {
                    throw CommandFailure.usage("--range last-days takes a number of days: --range last-days 7")
                }
                return .lastDays(days)
            case let other?:
                throw CommandFailure.usage("unknown range '\(other)'; use all, since-last or last-days N")
            }
        }

        private func printSchedule(_ scheduler: ExportScheduler) throws {
            guard let schedule = try scheduler.schedule() else {
                return Output.line(
                    "No export schedule. Set one with: healthprobe export schedule --every daily --at 08:00 --format json --to FOLDER"
                )
            }
            let state = try scheduler.state()
            let time = String(format: "%02d:%02d", schedule.hour, schedule.minute)
            Output.line(
                "\(EvidenceText.sentence(schedule.cadence.rawValue)) at \(time) (\(schedule.timeZone)): \(schedule.format.rawValue)\(schedule.encrypted ? ", encrypted" : ""), \(schedule.range.description), to \(schedule.folder)"
            )
            if let last = state.lastCompletedSlot {
                Output.line("Last completed: \(Output.time(seconds: last))")
            }
            let owed = max(state.lastCompletedSlot ?? schedule.createdAt, schedule.createdAt)
            let next = schedule.nextSlot(after: Date(timeIntervalSince1970: owed))
            Output.line("Next due: \(Output.time(seconds: next.timeIntervalSince1970.rounded(.down)))")
        }

        static let readPassword: @Sendable (String) throws -> [UInt8] = { path in
            try PasswordInput.read(file: path, confirming: false)
        }
    }

    struct ExportDue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "due",
            abstract: "Run the scheduled export if one is overdue (one catch-up for any number missed).",
            discussion: "For a systemd user timer or cron; see the README. Exit 74 when an overdue export failed.")

        @OptionGroup var archive: ArchiveOptions

        func run() async throws {
            let store = try archive.openExisting()
            let scheduler = ExportScheduler(archive: store, password: ExportSchedule.readPassword)
            let interrupt = InterruptCancellation()
            let outcome = try scheduler.runDue(cancellation: interrupt.cancellation)
            switch outcome {
            case .noSchedule:
                Output.line("No export schedule.")
            case .notDue(let next):
                Output.line(
                    "Nothing due; next at \(Output.time(seconds: next.timeIntervalSince1970.rounded(.down))).")
            case .exported(let result, _):
                Output.line(ExportRunner.summary(result).trimmingCharacters(in: .newlines))
            case .failed(let failure, _):
                throw CommandFailure(
                    "the scheduled export failed: \(failure.localizedDescription)", code: CommandFailure.ioFailureCode)
            }
        }
    }
}

extension HealthProbeKit.ExportSchedule.Cadence: ExpressibleByArgument {}

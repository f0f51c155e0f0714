import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Show or change the settings: check frequency, monitored types, alert threshold, the time zone \
                of days, source orders.
                """,
            usage: """
                healthprobe settings [--check-every <hours>] [--monitor <types>]
                  [--alert-threshold <level>] [--source-order <type> <sources>]
                  [--time-zone <zone>] [--delete-all-audit-data [--yes]] [<options>]
                """,
            discussion: """
                Settings live in the archive, so the dashboard, the iPhone app and the command line \
                share them. Without options, prints them.
                """)

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        @Option(name: .customLong("check-every"), help: "How often the live monitor checks: 2h, 6h, 12h or 24h.")
        var checkEvery: CheckInterval?

        @Option(
            name: .customLong("monitor"),
            help: "The sample types to monitor, comma-separated (StepCount,HeartRate,…), or all.")
        var monitor: String?

        @Option(
            name: .customLong("alert-threshold"),
            help: "The lowest severity that alerts, and `check --fail-on`'s default: info, warning or critical.")
        var alertThreshold: Severity?

        @Option(
            name: .customLong("source-order"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "A type's sources, best first, for its day figures: TYPE \"Source A,Source B\" (or TYPE default).",
                discussion: "Sources not named follow in Health's default order (`healthprobe day` shows them)."))
        var sourceOrder: [String] = []

        @Option(
            name: .customLong("time-zone"),
            help:
                "The zone every face shows days in (an IANA name such as Europe/Paris), or `system` for this computer's."
        )
        var timeZone: String?

        @Flag(
            name: .customLong("delete-all-audit-data"),
            help: "Delete every capture, record, anomaly and audit entry (the settings stay). Asks first.")
        var deleteAll = false

        @Flag(help: "Confirm --delete-all-audit-data without asking.")
        var yes = false

        func validate() throws {
            if yes && !deleteAll { throw ValidationError("--yes confirms --delete-all-audit-data only.") }
            if let monitor { _ = try Self.types(from: monitor) }
            if !sourceOrder.isEmpty && sourceOrder.count != 2 {
                throw ValidationError("--source-order takes a type and its sources: StepCount \"Watch,iPhone\"")
            }
        }

        func run() async throws {
            // Checked before the archive is opened: a zone that is no zone creates nothing.
            let zone = timeZone == "system" ? nil : timeZone.flatMap(TimeZone.init(identifier:))
            if let timeZone, timeZone != "system", zone == nil {
                throw CommandFailure.usage("unknown time zone '\(timeZone)'; use an IANA name such as Europe/Paris")
            }
            let changing = checkEvery != nil || monitor != nil || alertThreshold != nil
            // Any change creates the archive it is made in, as the README says of settings.
            let store =
                try (changing || deleteAll || timeZone != nil || sourceOrder.count == 2)
                ? archive.open() : archive.openExisting()
            if deleteAll {
                try confirmDeletion()
                try store.deleteAllAuditData()
                FileHandle.standardError.write(Data("healthprobe: all audit data deleted; the settings stay\n".utf8))
            }
            if sourceOrder.count == 2 {
                try setSourceOrder(in: store)
            }
            if timeZone != nil { try store.setDayZone(zone) }
            var settings = try store.fetchSettings()
            if changing {
                if let checkEvery { settings.checkFrequency = checkEvery.frequency }
                if let monitor { settings.monitoredTypes = try Self.types(from: monitor) }
                if let alertThreshold {
                    settings.alertThreshold = alertThreshold
                    settings.alertThresholdChosen = true
                }
                settings = try store.saveSettings(settings)
            }
            if output.json { return try Output.json(settings) }
            Output.line("Check frequency  \(settings.checkFrequency.title) (the iPhone app's background checks)")
            Output.line(
                "Alert threshold  \(settings.alertThreshold.rawValue)"
                    + (settings.alertThresholdChosen ? "" : " (default; `check` exits 0 unless --fail-on is given)"))
            let chosenZone = try store.chosenDayZone()
            Output.line("Days in          \(chosenZone ?? "\(TimeZone.current.identifier) (this computer's)")")
            Output.line(
                "Monitored types  \(settings.monitoredTypes.count) of \(HealthKitCatalog.types.count) "
                    + "(what the iPhone app reads; `check` of an export reads every type)")
            for type in settings.monitoredTypes {
                Output.line("  \(HealthKitCatalog.displayName(of: type).padding(28))\(type)")
            }
            for (type, order) in try store.chosenSourceOrders().sorted(by: { $0.key < $1.key }) {
                Output.line(
                    "Source order of \(HealthKitCatalog.displayName(of: type)): \(order.joined(separator: ", "))")
            }
        }

        /// `--source-order TYPE "A,B"`: the type named as anywhere else, the sources as written.
        private func setSourceOrder(in store: ArchiveStore) throws {
            let known = HealthKitCatalog.types.map(\.identifier)
            let type: String
            do {
                type = try ExportArguments.resolveType(sourceOrder[0], known: known)
            } catch {
                throw CommandFailure.usage(error.localizedDescription)
            }
            let names =
                sourceOrder[1] == "default"
                ? []
                : sourceOrder[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            if let unshowable = names.first(where: {
                UntrustedText.hasControls($0) || $0.count > UntrustedText.fieldLimit
            }) {
                throw CommandFailure.usage(
                    "a source in --source-order is one line of at most \(UntrustedText.fieldLimit) characters, without "
                        + "control characters: \(UntrustedText.field(unshowable)) is not")
            }
            try store.setSourceOrder(names, of: type)
            let order = names.isEmpty ? "Health's default" : names.joined(separator: ", ")
            FileHandle.standardError.write(
                Data(
                    "Source order of \(HealthKitCatalog.displayName(of: type)): \(UntrustedText.terminal(order))\n".utf8
                ))
        }

        private func confirmDeletion() throws {
            if yes { return }
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandFailure(
                    "--delete-all-audit-data deletes everything the archive holds; add --yes to confirm",
                    code: ExitCode.validationFailure.rawValue)
            }
            FileHandle.standardError.write(
                Data("This deletes every capture, record, anomaly and audit entry. Type delete to confirm: ".utf8))
            guard readLine()?.trimmingCharacters(in: .whitespaces) == "delete" else {
                throw CommandFailure("nothing deleted", code: ExitCode.validationFailure.rawValue)
            }
        }

        static func types(from list: String) throws -> [String] {
            if list.lowercased() == "all" { return HealthKitCatalog.types.map(\.identifier) }
            return try list.split(separator: ",").map { name in
                let name = name.trimmingCharacters(in: .whitespaces)
                guard let type = HealthKitCatalog.monitoredType(named: name) else {
                    let names = HealthKitCatalog.types.map(\.shortName)
                    if let nearest = CommandSuggestion.nearest(to: name, among: names) {
                        throw ValidationError("\(name) is not a type HealthProbe monitors; did you mean \(nearest)?")
                    }
                    throw ValidationError(
                        "\(name) is not a type HealthProbe monitors; choose from \(names.joined(separator: ", ")).")
                }
                return type.identifier
            }
        }
    }

    enum CheckInterval: String, ExpressibleByArgument, CaseIterable {
        case h2 = "2h", h6 = "6h", h12 = "12h", h24 = "24h"

        var frequency: MonitoringSettings.CheckFrequency {
            switch self {
            case .h2: .every2Hours
            case .h6: .every6Hours
            case .h12: .every12Hours
            case .h24: .every24Hours
            }
        }
    }
}

import ArgumentParser
import Foundation
import HealthProbeKit

extension HealthProbeCommand {
    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change the settings: check frequency, monitored types, alert threshold.",
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

        @Flag(
            name: .customLong("delete-all-audit-data"),
            help: "Delete every capture, record, anomaly and audit entry (the settings stay). Asks first.")
        var deleteAll = false

        @Flag(help: "Confirm --delete-all-audit-data without asking.")
        var yes = false

        func validate() throws {
            if yes && !deleteAll { throw ValidationError("--yes confirms --delete-all-audit-data only.") }
            if let monitor { _ = try Self.types(from: monitor) }
        }

        func run() async throws {
            let changing = checkEvery != nil || monitor != nil || alertThreshold != nil
            let store = try (changing || deleteAll) ? archive.open() : archive.openExisting()
            if deleteAll {
                try confirmDeletion()
                try store.deleteAllAuditData()
                FileHandle.standardError.write(Data("healthprobe: all audit data deleted; the settings stay\n".utf8))
            }
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
            Output.line("Check frequency  \(settings.checkFrequency.title)")
            Output.line(
                "Alert threshold  \(settings.alertThreshold.rawValue)"
                    + (settings.alertThresholdChosen ? "" : " (default; `check` exits 0 unless --fail-on is given)"))
            Output.line("Monitored types  \(settings.monitoredTypes.count) of \(HealthKitCatalog.types.count)")
            for type in settings.monitoredTypes {
                Output.line("  \(HealthKitCatalog.displayName(of: type).padding(28))\(type)")
            }
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

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// Settings: check frequency, the monitored types (a multi-select), the alert threshold, and the
/// destructive deletion of all audit data.
public struct SettingsState: Sendable, Equatable {
    public struct TypeOption: Sendable, Equatable {
        public var identifier: String
        public var name: String
        public var selected: Bool
    }

    public var settings: MonitoringSettings
    public var frequencies: [MonitoringSettings.CheckFrequency]
    public var types: [TypeOption]
    public var thresholds: [Severity]

    public static func load(from archive: ArchiveStore) throws -> SettingsState {
        make(try archive.fetchSettings())
    }

    public static func make(_ settings: MonitoringSettings) -> SettingsState {
        let chosen = Set(settings.monitoredTypes)
        return SettingsState(
            settings: settings, frequencies: MonitoringSettings.CheckFrequency.allCases,
            types: HealthKitCatalog.types.map {
                TypeOption(
                    identifier: $0.identifier, name: HealthKitCatalog.displayName(of: $0.identifier),
                    selected: chosen.contains($0.identifier))
            }, thresholds: Severity.allCases)
    }

    /// Settings from a form's fields (hours, type identifiers, severity name), checked: a value
    /// out of range is refused with a message for the person who entered it.
    public static func settings(
        fromHours hours: String?, types: [String], threshold: String?, current: MonitoringSettings
    ) throws -> MonitoringSettings {
        var settings = current
        if let hours {
            guard let value = Int(hours), let frequency = MonitoringSettings.CheckFrequency(rawValue: value) else {
                throw SettingsError(message: "Check frequency must be every 2, 6, 12 or 24 hours.")
            }
            settings.checkFrequency = frequency
        }
        if let threshold {
            guard let severity = Severity(rawValue: threshold) else {
                throw SettingsError(message: "Alert threshold must be info, warning or critical.")
            }
            settings.alertThreshold = severity
            settings.alertThresholdChosen = true
        }
        settings.monitoredTypes = types
        return try settings.validated()
    }
}

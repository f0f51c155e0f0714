import Foundation
internal import GRDB

/// What the user chose on the Settings screen (or with `healthprobe settings`), stored in the
/// archive so that the app, the dashboard and the command line honour the same choices: how
/// often the live monitor checks, which sample types it reads, and the lowest severity that
/// alerts.
public struct MonitoringSettings: Sendable, Equatable, Codable {
    /// How often the live monitor asks HealthKit for changes.
    public enum CheckFrequency: Int, Sendable, Codable, CaseIterable, Comparable {
        case every2Hours = 2, every6Hours = 6, every12Hours = 12, every24Hours = 24

        public var hours: Int { rawValue }
        public var seconds: TimeInterval { TimeInterval(rawValue) * 3_600 }
        /// "every 6 hours".
        public var title: String { self == .every24Hours ? "every 24 hours (daily)" : "every \(rawValue) hours" }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var checkFrequency: CheckFrequency
    /// HealthKit identifiers, in the catalog's order; never empty.
    public var monitoredTypes: [String]
    /// Anomalies at or above this severity alert: a notification on the phone, an alert on the
    /// dashboard, and `check --fail-on`'s default once it has been chosen.
    public var alertThreshold: Severity
    /// Whether the user chose the threshold (else it is the default and `check` exits 0 whatever
    /// it finds, as before settings existed).
    public var alertThresholdChosen: Bool

    public static let defaults = MonitoringSettings(
        checkFrequency: .every6Hours, monitoredTypes: HealthKitCatalog.defaultMonitoredTypes.map(\.identifier),
        alertThreshold: .warning, alertThresholdChosen: false)

    public init(
        checkFrequency: CheckFrequency, monitoredTypes: [String], alertThreshold: Severity,
        alertThresholdChosen: Bool = true
    ) {
        self.checkFrequency = checkFrequency
        self.monitoredTypes = monitoredTypes
        self.alertThreshold = alertThreshold
        self.alertThresholdChosen = alertThresholdChosen
    }

    /// The catalog's types the monitor reads, in the catalog's order.
    var monitoredCatalogTypes: [HealthKitCatalog.MonitoredType] {
        let chosen = Set(monitoredTypes)
        return HealthKitCatalog.types.filter { chosen.contains($0.identifier) }
    }

    /// The anomalies that alert.
    public func alerting(_ anomalies: [Anomaly]) -> [Anomaly] {
        anomalies.filter { $0.severity >= alertThreshold }
    }

    /// When the next check is due after one at `lastCheck` (now when there was none).
    public func nextCheck(after lastCheck: Date?, now: Date) -> Date {
        guard let lastCheck else { return now }
        return max(now, lastCheck.addingTimeInterval(checkFrequency.seconds))
    }
}

/// A setting refused as it stands, in words for the person who gave it.
public struct SettingsError: LocalizedError, Equatable {
    public let message: String
    public var errorDescription: String? { message }

    public init(message: String) {
        self.message = message
    }
}

extension MonitoringSettings {
    public static let keyPrefix = "settings."

    /// Checks a set of settings before it is stored.
    public func validated() throws -> MonitoringSettings {
        let known = Set(HealthKitCatalog.types.map(\.identifier))
        let unknown = monitoredTypes.filter { !known.contains($0) }
        if let first = unknown.first {
            throw SettingsError(message: "\(first) is not a sample type HealthProbe can monitor")
        }
        if monitoredTypes.isEmpty {
            throw SettingsError(message: "choose at least one sample type to monitor")
        }
        var copy = self
        copy.monitoredTypes = monitoredCatalogTypes.map(\.identifier)
        return copy
    }

    static func load(_ db: Database) throws -> MonitoringSettings {
        let values = try SettingRows.values(db, prefix: keyPrefix)
        var settings = MonitoringSettings.defaults
        if let hours = values[keyPrefix + "checkFrequencyHours"].flatMap(Int.init),
            let frequency = CheckFrequency(rawValue: hours)
        {
            settings.checkFrequency = frequency
        }
        if let text = values[keyPrefix + "monitoredTypes"],
            let types = try? JSONDecoder().decode([String].self, from: Data(text.utf8)), !types.isEmpty
        {
            settings.monitoredTypes = types
        }
        if let text = values[keyPrefix + "alertThreshold"], let severity = Severity(rawValue: text) {
            settings.alertThreshold = severity
            settings.alertThresholdChosen = true
        }
        return settings
    }

    func save(_ db: Database) throws {
        let types = String(decoding: try JSONEncoder().encode(monitoredTypes), as: UTF8.self)
        let values: [(String, String?)] = [
            ("checkFrequencyHours", String(checkFrequency.rawValue)), ("monitoredTypes", types),
            ("alertThreshold", alertThresholdChosen ? alertThreshold.rawValue : nil),
        ]
        for (key, value) in values { try SettingRows.set(db, Self.keyPrefix + key, value) }
    }
}

extension ArchiveStore {
    /// The stored settings, or the defaults where none were chosen.
    public func fetchSettings() throws -> MonitoringSettings {
        try read { db in try MonitoringSettings.load(db) }
    }

    /// Validates and stores settings, with an audit entry naming what changed (never values).
    @discardableResult
    public func saveSettings(_ settings: MonitoringSettings) throws -> MonitoringSettings {
        let valid = try settings.validated()
        return try write { db in
            let before = try MonitoringSettings.load(db)
            guard before != valid else { return valid }
            try valid.save(db)
            var changed: [String] = []
            if before.checkFrequency != valid.checkFrequency {
                changed.append("check frequency \(valid.checkFrequency.title)")
            }
            if before.monitoredTypes != valid.monitoredTypes {
                changed.append("\(valid.monitoredTypes.count) monitored types")
            }
            if before.alertThreshold != valid.alertThreshold
                || before.alertThresholdChosen != valid.alertThresholdChosen
            {
                changed.append("alert threshold \(valid.alertThreshold.rawValue)")
            }
            try AuditLog.append(
                db, event: .settingsChanged, message: "settings changed: " + changed.joined(separator: ", "))
            return valid
        }
    }
}

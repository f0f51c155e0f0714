import Foundation
import HealthProbeArchive

/// What the phone's observer queries watch, and how often HealthKit may wake the app for them.
/// Apple asks for the observers to be set up as the app launches, so that they exist when
/// HealthKit wakes it; the settings that choose them are in the archive, which opens later (after
/// an update its migrations may take a while). So the plan is kept in a small file beside the
/// archive, written each time the observers start, and read at launch: the observers start from
/// it at once, and again from the archive's settings once it is open if those differ. A missing
/// or unreadable file is the default settings' plan; types the catalog does not know are left out.
public struct ObserverPlan: Codable, Equatable, Sendable {
    /// HealthKit identifiers, each once, in the catalog's order.
    public var types: [String]
    /// Whether HealthKit may wake the app hourly (for checks every 2 hours), else daily.
    public var hourly: Bool

    public init(types: [String], hourly: Bool) {
        let chosen = Set(types)
        self.types = HealthKitCatalog.types.map(\.identifier).filter { chosen.contains($0) }
        self.hourly = hourly
    }

    public init(_ settings: MonitoringSettings) {
        self.init(types: settings.monitoredTypes, hourly: settings.checkFrequency <= .every2Hours)
    }

    /// The plan in `file`, or the default settings' when there is none to read.
    public static func read(from file: URL) -> ObserverPlan {
        guard let data = try? Data(contentsOf: file),
            let stored = try? JSONDecoder().decode(ObserverPlan.self, from: data)
        else { return ObserverPlan(.defaults) }
        let plan = ObserverPlan(types: stored.types, hourly: stored.hourly)
        return plan.types.isEmpty ? ObserverPlan(.defaults) : plan
    }

    /// Writes the plan whole (a new file renamed over the old), or not at all, unless `file`
    /// already holds it.
    public func write(to file: URL) throws {
        let holdsIt = FileManager.default.fileExists(atPath: file.path) && Self.read(from: file) == self
        guard !holdsIt else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
    }
}

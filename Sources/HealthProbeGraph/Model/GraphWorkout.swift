import Foundation

/// A workout as the graph keeps it: keyed by its HealthKit UUID where the archive knows it,
/// else by the record's strict fingerprint, so the same workout is one node however it arrived.
public struct GraphWorkout: Sendable {
    public let uid: String
    public let day: LocalDay
    public let start: Double
    public let end: Double
    /// The recording device's name, for `RECORDED`.
    public let device: String?
    /// The duration in minutes, to a tenth (`duration_min`, and the day's `workout_minutes`).
    public let minutes: Double
    /// The node's properties (docs/GRAPH.md §1; HealthGraphSync's names).
    public let properties: [(String, CypherValue)]

    /// "Running" for `HKWorkoutActivityTypeRunning`.
    static func displayName(ofActivity raw: String) -> String {
        let prefix = "HKWorkoutActivityType"
        return raw.hasPrefix(prefix) ? String(raw.dropFirst(prefix.count)) : raw
    }

    /// Duration in minutes, distance and energy with their units, read from a workout's details:
    /// the attributes older exports write, else the sums of its statistics.
    static func measures(details: [String: Any], start: Double, end: Double) -> (
        minutes: Double, properties: [(String, CypherValue)]
    ) {
        let attributes = details["otherAttributes"] as? [String: String] ?? [:]
        let statistics = details["statistics"] as? [[String: Any]] ?? []
        func statistic(_ matches: (String) -> Bool) -> (Double, String?)? {
            for entry in statistics {
                guard let type = entry["type"] as? String, matches(type),
                    let values = entry["attributes"] as? [String: String], let sum = values["sum"].flatMap(Double.init)
                else { continue }
                return (sum, values["unit"])
            }
            return nil
        }
        var minutes = (end - start) / 60
        if let duration = attributes["duration"].flatMap(Double.init) {
            switch attributes["durationUnit"] {
            case "s": minutes = duration / 60
            case "hr", "h": minutes = duration * 60
            default: minutes = duration
            }
        }
        let distance =
            attributes["totalDistance"].flatMap(Double.init).map { ($0, attributes["totalDistanceUnit"]) }
            ?? statistic { $0.contains("Distance") }
        let energy =
            attributes["totalEnergyBurned"].flatMap(Double.init).map { ($0, attributes["totalEnergyBurnedUnit"]) }
            ?? statistic { $0.hasSuffix("ActiveEnergyBurned") }
        minutes = (minutes * 10).rounded() / 10
        var values: [(String, CypherValue)] = [("duration_min", .float(minutes))]
        values.append(("total_distance", distance.map { .float($0.0) } ?? .null))
        values.append(("total_distance_unit", distance?.1.map(CypherValue.string) ?? .null))
        values.append(("total_energy_burned", energy.map { .float($0.0) } ?? .null))
        values.append(("total_energy_burned_unit", energy?.1.map(CypherValue.string) ?? .null))
        return (minutes, values)
    }
}

import Foundation

/// A workout's value in words, from its stored details: its duration, distance and energy
/// (`40 min, 5.2 km, 163.4 kcal`), read from the workout's own attributes or, in newer exports,
/// its statistics. A health value: shown only where values are asked for.
enum WorkoutSummary {
    static func text(details: String?) -> String? {
        guard let data = details?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        let attributes = object["otherAttributes"] as? [String: Any] ?? [:]
        func attribute(_ name: String) -> String? {
            guard let value = attributes[name] as? String else { return nil }
            return [value, attributes[name + "Unit"] as? String].compactMap { $0 }.joined(separator: " ")
        }
        let statistics = (object["statistics"] as? [[String: Any]] ?? []).compactMap {
            statistic -> (type: String, text: String)? in
            guard let type = statistic["type"] as? String, let values = statistic["attributes"] as? [String: Any],
                let sum = values["sum"] as? String
            else { return nil }
            return (type, [sum, values["unit"] as? String].compactMap { $0 }.joined(separator: " "))
        }
        func statistic(_ matches: (String) -> Bool) -> String? { statistics.first { matches($0.type) }?.text }
        let parts = [
            attribute("duration"),
            attribute("totalDistance") ?? statistic { $0.contains("Distance") },
            attribute("totalEnergyBurned") ?? statistic { $0.hasSuffix("ActiveEnergyBurned") },
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

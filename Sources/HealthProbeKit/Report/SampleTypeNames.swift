import Foundation
import HealthProbeArchive

/// The sample type a person or an assistant means, among the types an archive holds: the
/// HealthKit identifier, its name without HealthKit's prefix in any case and spelling
/// (`HeartRate`, `heart_rate`, `heart rate`), its display name, or a word people use for the
/// types they look at most (`steps`, `sleep`, `weight`). One reading for the command line and the
/// assistant.
public enum SampleTypeNames {
    /// What a name stands for: a type held, or the nearest held names (up to three, closest first).
    public enum Resolution: Equatable, Sendable {
        case found(String)
        case unknown(nearest: [String])
    }

    public static func resolve(_ name: String, among known: [String]) -> Resolution {
        let wanted = normalized(alias(name.trimmingCharacters(in: .whitespaces)))
        if let exact = known.first(where: { $0 == name }) { return .found(exact) }
        if let match = known.first(where: { identifier in
            [identifier, HealthKitCatalog.shortName(of: identifier), HealthKitCatalog.displayName(of: identifier)]
                .contains { normalized($0) == wanted }
        }) {
            return .found(match)
        }
        let limit = max(2, wanted.count / 3)
        var scored: [(identifier: String, distance: Int)] = []
        for identifier in known {
            let short = normalized(HealthKitCatalog.shortName(of: identifier))
            // A word people use is as near as its type's name: `stepz` is a slip of `steps`.
            let said = words.filter { normalized($0.value) == short }.map(\.key)
            let score = ([short] + said).map { distance($0, wanted) }.min() ?? distance(short, wanted)
            if score <= limit || short.contains(wanted) { scored.append((identifier, score)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.identifier < $1.identifier }
        return .unknown(nearest: scored.prefix(3).map(\.identifier))
    }

    /// Words people use for the types they look at most, normalized, and the type's short name.
    static let words: [String: String] = [
        "steps": "StepCount", "distance": "DistanceWalkingRunning", "walking": "DistanceWalkingRunning",
        "energy": "ActiveEnergyBurned", "activeenergy": "ActiveEnergyBurned", "calories": "ActiveEnergyBurned",
        "weight": "BodyMass", "sleep": "SleepAnalysis", "heart": "HeartRate", "pulse": "HeartRate",
        "hrv": "HeartRateVariabilitySDNN",
    ]

    /// The type's short name for a word people use, else `name` as it is.
    static func alias(_ name: String) -> String {
        words[normalized(name)] ?? name
    }

    static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

import Foundation

/// How one sample is recognised across kinds of source — an export and a backup's Health
/// database — where its strict identity cannot match: a database keeps sub-second times, the
/// HealthKit UUID and canonical units, an export whole seconds in the user's units.
///
/// The key is the design's fuzzy identity (docs/DESIGN.md §6) made to survive both: type,
/// normalised source, start and end to the second, the value converted to one unit of its
/// dimension and rounded to four significant digits (a category's value by name). Where the
/// design rounds times to the nearest second, an export writes them truncated (its date
/// formatter drops the fraction), so a sample with a fraction has two keys: whole seconds
/// truncated, then rounded. Keys live in memory during one check only: Swift's per-process
/// hashing is enough.
struct SampleMatchKey {
    /// What a key is made of, read from a sample, a record being stored, or an archived record.
    struct Content {
        var type: String
        var sourceName: String?
        var unit: String?
        var value: String?
        var numericValue: Double?
        var startDate: Double?
        var endDate: Double?
    }

    /// The sample's keys, truncated seconds first; without the source when `includingSource` is
    /// false (a database read without `healthdb.sqlite` has no source names).
    static func keys(_ content: Content, includingSource: Bool) -> [Int] {
        let source = includingSource ? content.sourceName.map(RecordFingerprints.normalizedSourceName) : nil
        var valueHasher = Hasher()
        if let number = content.numericValue {
            let (dimension, amount) = CanonicalUnit.convert(number, from: content.unit)
            valueHasher.combine(dimension)
            valueHasher.combine(RecordFingerprints.roundedToSignificantDigits(amount, 4))
        } else {
            valueHasher.combine(content.value)
        }
        let value = valueHasher.finalize()
        func key(_ second: (Double) -> Double) -> Int {
            var hasher = Hasher()
            hasher.combine(content.type)
            hasher.combine(includingSource)
            hasher.combine(source)
            hasher.combine(value)
            hasher.combine(content.startDate.map(second))
            hasher.combine(content.endDate.map(second))
            return hasher.finalize()
        }
        let truncated = key { $0.rounded(.down) }
        let rounded = key { $0.rounded() }
        return truncated == rounded ? [truncated] : [truncated, rounded]
    }
}

/// Units an export may write a quantity in, each converted to one unit of its dimension, so that
/// 150 lb and the database's 68.04 kg are the same value. Unknown units compare as written.
enum CanonicalUnit {
    /// The dimension's name and the amount in its unit (kg, m, kcal, s, °C, count/s, fraction,
    /// m/s); for an unknown unit, the unit itself and the amount unchanged.
    static func convert(_ amount: Double, from unit: String?) -> (dimension: String, amount: Double) {
        guard let unit else { return ("", amount) }
        if let (dimension, factor) = factors[unit] { return (dimension, amount * factor) }
        switch unit {
        case "degF": return ("temperature", (amount - 32) * 5 / 9)
        case "K": return ("temperature", amount - 273.15)
        default: return (unit, amount)
        }
    }

    private static let factors: [String: (String, Double)] = [
        "kg": ("mass", 1), "g": ("mass", 0.001), "mg": ("mass", 1e-6), "mcg": ("mass", 1e-9),
        "lb": ("mass", 0.453_592_37), "oz": ("mass", 0.028_349_523_125), "st": ("mass", 6.350_293_18),
        "m": ("length", 1), "cm": ("length", 0.01), "mm": ("length", 0.001), "km": ("length", 1_000),
        "mi": ("length", 1_609.344), "ft": ("length", 0.3048), "in": ("length", 0.0254), "yd": ("length", 0.9144),
        "kcal": ("energy", 1), "Cal": ("energy", 1), "cal": ("energy", 0.001), "kJ": ("energy", 1 / 4.184),
        "J": ("energy", 1 / 4_184),
        "s": ("time", 1), "ms": ("time", 0.001), "min": ("time", 60), "hr": ("time", 3_600), "d": ("time", 86_400),
        "degC": ("temperature", 1),
        "count/s": ("frequency", 1), "count/min": ("frequency", 1.0 / 60), "Hz": ("frequency", 1),
        "%": ("fraction", 0.01),
        "m/s": ("speed", 1), "km/hr": ("speed", 1 / 3.6), "mi/hr": ("speed", 0.447_04),
    ]
}

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

    /// The last few source names normalised: a type's samples alternate between a watch and a
    /// phone, and normalising a name for each of a million samples was a tenth of a check.
    private var recentSources: [(name: String, normalized: String)] = []

    /// The sample's keys, truncated seconds first; without the source when `includingSource` is
    /// false (a database read without `healthdb.sqlite` has no source names).
    mutating func keys(_ content: Content, includingSource: Bool) -> [UInt64] {
        let stem = stem(content, includingSource: includingSource)
        let truncated = Self.key(stem, content.startDate.map(Self.truncated), content.endDate.map(Self.truncated))
        let rounded = Self.key(stem, content.startDate.map { $0.rounded() }, content.endDate.map { $0.rounded() })
        return truncated == rounded ? [truncated] : [truncated, rounded]
    }

    /// The key with the sample's times truncated to the second: how a record with sub-second
    /// times (a backup's) is indexed for an export to meet.
    mutating func truncatedKey(_ content: Content, includingSource: Bool) -> UInt64 {
        Self.key(
            stem(content, includingSource: includingSource), content.startDate.map(Self.truncated),
            content.endDate.map(Self.truncated))
    }

    /// An export record's keys against records indexed by ``truncatedKey``: its whole seconds
    /// as they are (written truncated) and a second less for start, end or both (written rounded
    /// up from a fraction past the half).
    mutating func exportKeys(_ content: Content, includingSource: Bool) -> [UInt64] {
        let stem = stem(content, includingSource: includingSource)
        let start = content.startDate.map(Self.truncated)
        let end = content.endDate.map(Self.truncated)
        var keys: [UInt64] = []
        keys.reserveCapacity(4)
        for (startShift, endShift) in [(0.0, 0.0), (1, 1), (1, 0), (0, 1)] {
            let key = Self.key(stem, start.map { $0 - startShift }, end.map { $0 - endShift })
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    private static func truncated(_ seconds: Double) -> Double { seconds.rounded(.down) }

    /// What every key of a sample shares: type, source and value, hashed once.
    private mutating func stem(_ content: Content, includingSource: Bool) -> Hasher {
        var hasher = Hasher()
        hasher.combine(content.type)
        hasher.combine(includingSource)
        if includingSource, let name = content.sourceName { hasher.combine(normalized(name)) }
        if let number = content.numericValue {
            let (dimension, amount) = CanonicalUnit.convert(number, from: content.unit)
            hasher.combine(dimension)
            hasher.combine(RecordFingerprints.roundedToSignificantDigits(amount, 4))
        } else {
            hasher.combine(content.value)
        }
        return hasher
    }

    private static func key(_ stem: Hasher, _ start: Double?, _ end: Double?) -> UInt64 {
        var hasher = stem
        hasher.combine(start)
        hasher.combine(end)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    static func keys(_ content: Content, includingSource: Bool) -> [UInt64] {
        var maker = SampleMatchKey()
        return maker.keys(content, includingSource: includingSource)
    }

    /// A UUID's key: its two halves folded (HealthKit's UUIDs are random).
    static func key(_ uuid: UUID) -> UInt64 {
        withUnsafeBytes(of: uuid.uuid) { key($0) }
    }

    /// The key of a UUID's 16 bytes.
    static func key(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    private mutating func normalized(_ name: String) -> String {
        if let recent = recentSources.first(where: { $0.name == name }) { return recent.normalized }
        let normalized = RecordFingerprints.normalizedSourceName(name)
        recentSources.insert((name, normalized), at: 0)
        if recentSources.count > 4 { recentSources.removeLast() }
        return normalized
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

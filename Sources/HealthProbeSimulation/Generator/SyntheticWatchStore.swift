import Foundation
import HealthProbeArchive
import HealthProbeKit

/// A Health store the size of one Apple Watch wearer's years, computed rather than held: sample
/// `i` of a type is a pure function of the seed, the type and `i`, so five years (over five
/// million samples) cost no memory, and every process that builds the store with the same
/// parameters sees the same samples, UUIDs and anchors — what the phone-scale benchmark needs to
/// cut a first sync into background windows, one process each. Synthetic data only.
///
/// Each type's change history is its generated samples in order (positions 1…n), then what
/// ``addDay()`` and ``delete(_:of:)`` append after them, as HealthKit appends changes after its
/// anchors.
public actor SyntheticWatchStore: HealthDataSource {
    /// How often a type is written: `perPeriod` samples every `periodDays` days, spread over
    /// `hours` of the day from `firstHour`.
    public struct Rate: Sendable {
        public var type: String
        public var perPeriod: Int
        public var periodDays = 1
        public var firstHour = 0.0
        public var hours = 24.0
    }

    /// A wearer's rates: heart rate every 4 minutes, active energy every minute and steps and
    /// distance every 2 minutes while awake, basal energy every 3 minutes, a night of sleep
    /// stages, daily resting heart rate, HRV a few times a day, a workout every other day,
    /// weekly weight and blood pressure. About 2,780 samples a day.
    public static let watchRates: [Rate] = [
        Rate(type: "HKQuantityTypeIdentifierHeartRate", perPeriod: 360),
        Rate(type: "HKQuantityTypeIdentifierActiveEnergyBurned", perPeriod: 960, firstHour: 7, hours: 16),
        Rate(type: "HKQuantityTypeIdentifierBasalEnergyBurned", perPeriod: 480),
        Rate(type: "HKQuantityTypeIdentifierStepCount", perPeriod: 480, firstHour: 7, hours: 16),
        Rate(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", perPeriod: 480, firstHour: 7, hours: 16),
        Rate(type: "HKQuantityTypeIdentifierRestingHeartRate", perPeriod: 1, firstHour: 8, hours: 1),
        Rate(type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", perPeriod: 6),
        Rate(type: "HKCategoryTypeIdentifierSleepAnalysis", perPeriod: 12, firstHour: 0, hours: 7),
        Rate(type: HealthRecord.workoutType, perPeriod: 1, periodDays: 2, firstHour: 18, hours: 1),
        Rate(type: "HKQuantityTypeIdentifierBodyMass", perPeriod: 1, periodDays: 7, firstHour: 7, hours: 0.5),
        Rate(type: "HKCorrelationTypeIdentifierBloodPressure", perPeriod: 1, periodDays: 7, firstHour: 9, hours: 1),
    ]

    public nonisolated let days: Int
    public nonisolated let seed: UInt64
    /// Midnight UTC of the first day.
    public nonisolated let firstDay: Double
    public nonisolated let rates: [Rate]
    private var appended: [String: [Change]] = [:]
    private var removed: [String: Set<Int>] = [:]
    private var daysAdded = 0

    enum Change {
        case added(HealthSample)
        case deleted(DeletedSample)
    }

    public init(days: Int, seed: UInt64 = 1, firstDay: Double = 946_684_800, rates: [Rate] = watchRates) {
        self.days = days
        self.seed = seed
        self.firstDay = firstDay
        self.rates = rates
    }

    /// Samples the store generates (before any day added or deletion).
    public nonisolated var generatedCount: Int { rates.reduce(0) { $0 + count(of: $1) } }

    /// The midnight after the last day the store holds.
    public var endOfData: Double { firstDay + Double(days + daysAdded) * 86_400 }

    /// The monitored types of the store.
    public nonisolated var types: [String] { rates.map(\.type) }

    public func authorization() async -> HealthAuthorization { .requested }

    public func changes(of type: String, since anchor: HealthAnchor?, limit: Int) async throws -> ChangePage {
        guard let rate = rates.first(where: { $0.type == type }) else {
            return ChangePage(added: [], deleted: [], anchor: anchor, mayHaveMore: false)
        }
        let generated = count(of: rate)
        let extra = appended[type] ?? []
        let end = generated + extra.count
        var position = anchor.map(SimulatedHealthStore.position).map(Int.init) ?? 0
        var added: [HealthSample] = []
        var deleted: [DeletedSample] = []
        let skipped = removed[type] ?? []
        while position < end && added.count + deleted.count < max(limit, 1) {
            position += 1
            if position <= generated {
                if !skipped.contains(position) { added.append(sample(rate, index: position - 1)) }
            } else {
                switch extra[position - generated - 1] {
                case .added(let sample): added.append(sample)
                case .deleted(let object): deleted.append(object)
                }
            }
        }
        return ChangePage(
            added: added, deleted: deleted, anchor: SimulatedHealthStore.anchor(UInt64(position)),
            mayHaveMore: position < end)
    }

    /// Writes one more day of every type, after everything else in each history.
    public func addDay() {
        let day = days + daysAdded
        daysAdded += 1
        for rate in rates where day % rate.periodDays == 0 {
            let first = day / rate.periodDays * rate.perPeriod
            for index in first..<(first + rate.perPeriod) {
                appended[rate.type, default: []].append(.added(sample(rate, index: index)))
            }
        }
    }

    /// Deletes generated samples of `type` as a user does, each leaving a tombstone; returns
    /// their UUIDs.
    @discardableResult
    public func delete(_ indices: [Int], of type: String) -> [UUID] {
        guard let rate = rates.first(where: { $0.type == type }) else { return [] }
        return indices.map { index in
            removed[type, default: []].insert(index + 1)
            let uuid = sample(rate, index: index).uuid
            appended[type, default: []].append(.deleted(DeletedSample(uuid: uuid)))
            return uuid
        }
    }

    /// Loses generated samples of `type` without a trace, as a failed sync or migration does:
    /// no tombstone, they are simply no longer read.
    public func vanish(_ indices: [Int], of type: String) {
        for index in indices { removed[type, default: []].insert(index + 1) }
    }

    nonisolated func count(of rate: Rate) -> Int { days / rate.periodDays * rate.perPeriod }

    /// Sample `index` of a type: its day and slot give its time, the hash its UUID and value.
    nonisolated func sample(_ rate: Rate, index: Int) -> HealthSample {
        let period = index / rate.perPeriod
        let slot = index % rate.perPeriod
        let spacing = rate.hours * 3600 / Double(rate.perPeriod)
        var hash = SplitMix64(seed: seed ^ Self.stableHash(rate.type), stream: UInt64(index))
        let start =
            firstDay + Double(period * rate.periodDays) * 86_400 + rate.firstHour * 3600 + Double(slot) * spacing
            + Double(hash.next() % 20)
        let uuid = UUID(uuid: hash.uuidBytes())
        let unit = Self.units[rate.type]
        let value = Self.value(of: rate.type, hash.next(), slot: slot)
        switch rate.type {
        case HealthRecord.workoutType:
            return HealthSample(
                uuid: uuid, kind: .workout, type: rate.type, sourceName: Self.watchSource, device: Self.watch,
                startDate: start, endDate: start + 1800 + Double(hash.next() % 1800), creationDate: start + 3600,
                metadata: ["HKIndoorWorkout": "0"], workoutActivityType: "HKWorkoutActivityTypeRunning")
        case "HKCorrelationTypeIdentifierBloodPressure":
            let members = [
                ("HKQuantityTypeIdentifierBloodPressureSystolic", 110 + Double(hash.next() % 25)),
                ("HKQuantityTypeIdentifierBloodPressureDiastolic", 70 + Double(hash.next() % 15)),
            ].map { type, value in
                HealthSample(
                    uuid: UUID(uuid: hash.uuidBytes()), kind: .quantity, type: type, sourceName: Self.cuffSource,
                    unit: "mmHg", value: value, startDate: start, endDate: start)
            }
            return HealthSample(
                uuid: uuid, kind: .correlation, type: rate.type, sourceName: Self.cuffSource, startDate: start,
                endDate: start, members: members)
        case "HKCategoryTypeIdentifierSleepAnalysis":
            return HealthSample(
                uuid: uuid, kind: .category, type: rate.type, sourceName: Self.watchSource, device: Self.watch,
                value: value, startDate: start, endDate: start + spacing, creationDate: start + 8 * 3600)
        default:
            let length = rate.perPeriod >= 100 ? spacing : 0
            return HealthSample(
                uuid: uuid, kind: .quantity, type: rate.type, sourceName: Self.watchSource, sourceVersion: "10.1",
                device: Self.watch, unit: unit, value: value, startDate: start, endDate: start + length,
                creationDate: start + length + 60)
        }
    }

    /// A hash of the text that is the same in every process (Swift's `hashValue` is seeded per
    /// process): FNV-1a over the UTF-8 bytes.
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    static let watchSource = "Test User\u{2019}s Apple Watch"
    static let cuffSource = "Test Cuff"
    static let watch = HealthSample.Device(
        name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1", software: "10.1")

    static let units: [String: String] = [
        "HKQuantityTypeIdentifierHeartRate": "count/min", "HKQuantityTypeIdentifierRestingHeartRate": "count/min",
        "HKQuantityTypeIdentifierActiveEnergyBurned": "kcal", "HKQuantityTypeIdentifierBasalEnergyBurned": "kcal",
        "HKQuantityTypeIdentifierStepCount": "count", "HKQuantityTypeIdentifierDistanceWalkingRunning": "km",
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": "ms", "HKQuantityTypeIdentifierBodyMass": "kg",
    ]

    static func value(of type: String, _ random: UInt64, slot: Int) -> Double {
        let unit = Double(random % 1000) / 1000
        switch type {
        case "HKQuantityTypeIdentifierHeartRate": return 55 + (unit * 60).rounded()
        case "HKQuantityTypeIdentifierRestingHeartRate": return 50 + (unit * 15).rounded()
        case "HKQuantityTypeIdentifierActiveEnergyBurned": return (unit * 4 * 1000).rounded() / 1000
        case "HKQuantityTypeIdentifierBasalEnergyBurned": return 2 + (unit * 1000).rounded() / 1000
        case "HKQuantityTypeIdentifierStepCount": return (unit * 240).rounded()
        case "HKQuantityTypeIdentifierDistanceWalkingRunning": return (unit * 200).rounded() / 1000
        case "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": return 20 + (unit * 60).rounded()
        case "HKQuantityTypeIdentifierBodyMass": return 70 + (unit * 20).rounded() / 10
        case "HKCategoryTypeIdentifierSleepAnalysis": return Double([3, 4, 3, 5, 2][slot % 5])
        default: return unit
        }
    }
}

extension SplitMix64 {
    /// Sixteen bytes for a version-4 UUID.
    mutating func uuidBytes() -> uuid_t {
        let high = next()
        let low = next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
            bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}

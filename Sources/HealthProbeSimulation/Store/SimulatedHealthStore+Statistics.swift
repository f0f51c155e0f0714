import Foundation
import HealthProbeArchive
import HealthProbeKit

/// HealthKit's statistics as the simulated store gives them — written apart from the archive's
/// day figures, so that the phone's comparison is tested against something it did not compute:
/// a cumulative type's sum of a local day, each stretch between two sample edges taken from the
/// best-placed source covering it (entered by hand, the Apple Watch, the iPhone, then other
/// sources, the one that wrote first latest first), a sample's quantity spread evenly over its
/// time; an instant sample counts unless a better-placed source covers its instant. Days are
/// stepped in the store's own calendar (``calendarZone``, the simulated phone's), as HealthKit
/// steps them in the device's, not in the zone the archive shows. A sum of a type that is not
/// cumulative is refused, as HealthKit refuses it (``requireSupport(of:for:)``).
extension SimulatedHealthStore: HealthStatisticsSource {
    public func dailySums(of type: String, unit: String, days: ClosedRange<Int64>) async throws -> [Int64: Double] {
        try requireSupport(of: "cumulativeSum", for: type)
        let zone = calendarZone
        try checkReadable()
        guard readAccess else { return [:] }
        let held = (samples[type] ?? [:]).values.filter { $0.sample.unit == unit && $0.sample.value != nil }
        var firstWrite: [String: UInt64] = [:]
        for entry in held {
            firstWrite[entry.sample.sourceName] = min(firstWrite[entry.sample.sourceName] ?? .max, entry.anchor)
        }
        // Lower is better: the tier, then the source that wrote first latest first.
        func place(_ sample: HealthSample) -> (Int, Int64) {
            let model = sample.device?.model ?? ""
            let tier =
                sample.metadata["HKWasUserEntered"] == "1"
                ? 0 : model.contains("Watch") ? 1 : model.contains("iPhone") ? 2 : 3
            return (tier, -Int64(firstWrite[sample.sourceName] ?? 0))
        }
        let all = held.map(\.sample)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func midnight(_ day: Int64) -> Double {
            let date = utc.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            return calendar.date(from: date)!.timeIntervalSince1970
        }
        var sums: [Int64: Double] = [:]
        for day in days {
            let (start, end) = (midnight(day), midnight(day + 1))
            let spread = all.filter { $0.endDate > $0.startDate && $0.endDate > start && $0.startDate < end }
            let edges = Set(
                [start, end] + spread.flatMap { [$0.startDate, $0.endDate] }.filter { $0 > start && $0 < end }
            )
            .sorted()
            var sum = 0.0
            var any = false
            for (from, to) in zip(edges, edges.dropFirst()) {
                let covering = spread.filter { $0.startDate <= from && $0.endDate >= to }
                guard let best = covering.min(by: { place($0) < place($1) }) else { continue }
                sum += best.value! * (to - from) / (best.endDate - best.startDate)
                any = true
            }
            for instant in all
            where instant.endDate == instant.startDate && instant.startDate >= start && instant.startDate < end {
                let mine = place(instant)
                let better = spread.contains {
                    $0.startDate <= instant.startDate && $0.endDate > instant.startDate && place($0) < mine
                }
                if !better {
                    sum += instant.value!
                    any = true
                }
            }
            if any { sums[day] = sum }
        }
        return sums
    }
}

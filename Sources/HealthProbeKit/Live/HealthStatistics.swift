import Foundation
import HealthProbeArchive

/// Health's own sums of a day, where the source can give them: HealthKit's statistics combine a
/// cumulative type's sources as the Health app does (docs/HEALTHKIT.md), so the phone can hold
/// the archive's day figures against them.
public protocol HealthStatisticsSource: Sendable {
    /// The zone of the calendar the source's days are stepped in. HealthKit steps a statistics
    /// query's days in the device's current calendar, whatever zone the archive shows days in:
    /// the comparison reads the archive's figures in this zone too, so that after travel, or a
    /// clock change in only one of the two zones, the same day is held against the same day.
    var calendarZone: TimeZone { get async }

    /// The sum of `type` in `unit` of each local day of `days` (days since 1970-01-01 in
    /// ``calendarZone``) that has any.
    func dailySums(of type: String, unit: String, days: ClosedRange<Int64>) async throws -> [Int64: Double]
}

/// A day whose figure in the archive is not the one Health shows.
public struct FigureDisagreement: Sendable, Equatable {
    public var type: String
    public var day: Int64
    /// How far apart, as a share of the larger of the two (never the values themselves).
    public var share: Double
}

/// The archive's day figures of the monitored cumulative types over the last days, held against
/// Health's own. A difference means the archive lacks what Health holds (or holds what Health no
/// longer does), or that the rule differs: either is worth a line in the trail.
public enum HealthStatisticsComparison {
    /// The days compared, today included.
    public static let days: Int64 = 7
    /// Differences under 1 % or under one unit are rounding: not reported.
    static let tolerance = 0.01

    public static func compare(
        _ store: ArchiveStore, with statistics: any HealthStatisticsSource, types: [String], now: Date
    ) async throws -> [FigureDisagreement] {
        let zone = await statistics.calendarZone
        var local = LocalDays(zone: zone)
        let today = local.day(of: now.timeIntervalSince1970)
        let period = (today - days + 1)...today
        var found: [FigureDisagreement] = []
        for type in types where HealthKitCatalog.dailyAggregation(of: type, hasValues: true) == .sum {
            guard let unit = HealthKitCatalog.type(type)?.unit else { continue }
            let figures = try store.dayFigures(types: [type], days: period, zone: zone)
            guard figures.allSatisfy({ $0.unit == unit }) else { continue }
            let ours = Dictionary(uniqueKeysWithValues: figures.map { ($0.day, $0.value) })
            let health = try await statistics.dailySums(of: type, unit: unit, days: period)
            for day in period {
                let (mine, theirs) = (ours[day] ?? 0, health[day] ?? 0)
                let larger = max(abs(mine), abs(theirs))
                guard abs(mine - theirs) > max(1, larger * tolerance) else { continue }
                found.append(FigureDisagreement(type: type, day: day, share: abs(mine - theirs) / larger))
            }
        }
        return found
    }

    /// The trail's line: types, days (in the statistics' calendar) and shares, never a value.
    public static func auditMessage(_ found: [FigureDisagreement]) -> String {
        let shown = found.prefix(5).map { item in
            "\(HealthKitCatalog.displayName(of: item.type)) on \(UTCText.day(item.day)) by "
                + "\(String(format: "%.1f", item.share * 100)) %"
        }
        let more = found.count > 5 ? " and \(found.count - 5) more" : ""
        return "day figures differ from Health's own: " + shown.joined(separator: ", ") + more
    }
}

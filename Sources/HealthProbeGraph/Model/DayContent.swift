import Foundation
import HealthProbeArchive
import HealthProbeKit

/// What the graph holds for one local day, gathered from the archive's present records: the
/// summary's metrics, the night's sleep, the workouts and the activity rings.
public struct DayContent: Sendable {
    public let day: LocalDay
    var metrics: [String: MetricAccumulator] = [:]
    /// How many samples each metric the day figures gave was drawn from.
    private var figureSamples: [String: Int] = [:]
    var asleepMinutes = 0.0
    var inBedMinutes = 0.0
    var sleepStart: Double?
    /// Asleep minutes by source, to name the session's source (the preferred one, then the most).
    var sleepSources: [String: (priority: Int, minutes: Double)] = [:]
    public internal(set) var workouts: [GraphWorkout] = []
    /// The day's activity summary, as exported (`activeEnergyBurned`, …), when it has one.
    var activitySummary: [String: String]?
    /// Device names of the day's records, for `USES`.
    public internal(set) var devices: Set<String> = []

    init(day: LocalDay) {
        self.day = day
    }

    /// True when the day has anything to show: a summary value, sleep, a workout or rings.
    public var hasData: Bool {
        !metrics.isEmpty || asleepMinutes > 0 || !workouts.isEmpty || activitySummary != nil
    }

    /// The summary's properties, every one a sync owns: nil where the day has no such value,
    /// which removes a value stored before (the archive no longer holds its samples).
    public var summary: [(String, CypherValue)] {
        var values = SummaryMetric.all.map { metric -> (String, CypherValue) in
            guard let value = metrics[metric.property]?.value(for: metric.combination) else {
                return (metric.property, .null)
            }
            if case .asleepHours = metric.combination { return (metric.property, metric.rounded(value / 60)) }
            return (metric.property, metric.rounded(value))
        }
        values.append(("workout_count", .integer(Int64(workouts.count))))
        let minutes = workouts.reduce(0.0) { $0 + $1.minutes }
        values.append(("workout_minutes", .float((minutes * 10).rounded() / 10)))
        return values
    }

    /// The night's `SleepSession`, when the day has asleep time.
    public var sleepSession: [(String, CypherValue)]? {
        guard asleepMinutes > 0 else { return nil }
        let source = sleepSources.min { left, right in
            (left.value.priority, -left.value.minutes, left.key) < (
                right.value.priority, -right.value.minutes, right.key
            )
        }
        return [
            ("asleep_minutes", .float((asleepMinutes * 10).rounded() / 10)),
            ("in_bed_minutes", .float(((inBedMinutes > 0 ? inBedMinutes : asleepMinutes) * 10).rounded() / 10)),
            ("source_name", source.map { .string($0.key) } ?? .null),
        ]
    }

    /// The Day node's rings under HealthGraphSync's names, each null where the day has no
    /// activity summary (which removes a stale one).
    public var ringValues: [(String, CypherValue)] {
        Self.rings.map { property, attribute in
            (property, activitySummary?[attribute].flatMap(Double.init).map(CypherValue.float) ?? .null)
        }
    }

    private static let rings = [
        ("ring_move", "activeEnergyBurned"), ("ring_move_goal", "activeEnergyBurnedGoal"),
        ("ring_exercise", "appleExerciseTime"), ("ring_exercise_goal", "appleExerciseTimeGoal"),
        ("ring_stand", "appleStandHours"), ("ring_stand_goal", "appleStandHoursGoal"),
    ]

    /// Takes a summed metric's or the night's figure from the day figures (the sources taken
    /// moment by moment, docs/DESIGN.md §8a).
    mutating func apply(_ figure: DayFigure) {
        if figure.kind == .sleep {
            asleepMinutes = figure.value * 60
            inBedMinutes = (figure.inBed ?? 0) * 60
            sleepStart = figure.asleepFrom
            sleepSources = [:]
            for part in figure.sources where part.counted > 0 {
                sleepSources[part.source] = (part.place, part.counted * 60)
            }
            metrics["sleep_hours"] = asleepMinutes > 0 ? MetricAccumulator(total: asleepMinutes) : nil
            figureSamples["sleep_hours"] = figure.samples
            return
        }
        for metric in SummaryMetric.byType[figure.type] ?? [] {
            let figured: Double?
            switch metric.combination {
            case .sum, .mean: figured = figure.value
            case .minimum: figured = figure.minimum
            case .maximum: figured = figure.maximum
            default: figured = nil
            }
            guard let figured, let value = metric.converted(figured, from: metric.unit == nil ? nil : figure.unit)
            else { continue }
            metrics[metric.property] = MetricAccumulator(total: value)
            figureSamples[metric.property] = figure.samples
        }
    }

    /// How many samples a summary property of this day was drawn from; nil for one it does not
    /// have, or one drawn from workouts.
    public func samples(behind property: String) -> Int? {
        figureSamples[property] ?? metrics[property]?.count
    }

    /// Whether a summary property is always one reading's value, however many samples the day
    /// has: its lowest, its highest, its last.
    public static func isOneReading(_ property: String) -> Bool {
        switch SummaryMetric.all.first(where: { $0.property == property })?.combination {
        case .minimum, .maximum, .last: true
        default: false
        }
    }
}

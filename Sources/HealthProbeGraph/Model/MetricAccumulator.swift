/// A day's samples of one metric, combined as they are read.
struct MetricAccumulator {
    private(set) var count = 0
    private var sum = 0.0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    private var lastInstant = -Double.infinity
    private var lastValue = 0.0

    init() {}

    /// A figure already combined (a summed metric's day, the night's minutes asleep).
    init(total: Double) {
        add(total, at: 0)
    }

    mutating func add(_ value: Double, at instant: Double) {
        count += 1
        sum += value
        minimum = min(minimum, value)
        maximum = max(maximum, value)
        if instant >= lastInstant {
            lastInstant = instant
            lastValue = value
        }
    }

    /// Counts a sample without a value (a category sample that matched).
    mutating func tally() {
        count += 1
    }

    func value(for combination: SummaryMetric.Combination) -> Double? {
        guard count > 0 else { return nil }
        switch combination {
        case .mean: return sum / Double(count)
        case .minimum: return minimum
        case .maximum: return maximum
        case .sum, .asleepHours: return sum
        case .last: return lastValue
        case .count: return Double(count)
        }
    }
}

/// One sample as a day's figure reads it: its source (an index into the type's sources), its
/// time, and its amount (in the type's unit) or its sleep stage.
struct DaySample: Sendable {
    enum Stage: Int, Sendable {
        case asleep = 1, awake, inBed
    }

    var source: Int
    var start: Double
    var end: Double
    var amount: Double
    var stage: Stage?
}

/// What a sweep found for one day: per source, what counts and what was left out as overlap
/// (amounts, or seconds asleep); for sleep, the seconds in bed.
struct SweepResult {
    var counted: [Int: Double] = [:]
    var overlapped: [Int: Double] = [:]
    var inBedSeconds = 0.0
    /// The first instant counted asleep (sleep only).
    var firstAsleep: Double?
}

/// The day as Health combines sources: the day's instants cut at every start and end, and each
/// stretch taken from the best-placed source covering it (`rank`: lower is better, by source
/// index). Linear in the samples after one sort; the state is per source, and a day has few.
enum DaySweep {
    private struct Event {
        var time: Double
        /// −1 an end, +1 a start; ends first at one instant (a sample covers its start, not its end).
        var delta: Int
        var sample: Int
    }

    /// A cumulative quantity: each sample's amount spread evenly over its time; a stretch covered
    /// by several sources counts once, from the best-placed one (several samples of that source
    /// add up). A sample without duration counts where no better source covers its instant.
    static func cumulative(_ samples: [DaySample], in day: Range<Double>, rank: [Int]) -> SweepResult {
        var result = SweepResult()
        var active = ActiveSources(count: rank.count)
        var points: [Int] = []
        let events = self.events(samples, in: day, points: &points)
        points.sort { samples[$0].start < samples[$1].start }
        var nextPoint = 0
        // Instants before any sample with a duration begins: nothing covers them.
        let firstTime = events.first?.time ?? day.upperBound
        while nextPoint < points.count && samples[points[nextPoint]].start < firstTime {
            result.counted[samples[points[nextPoint]].source, default: 0] += samples[points[nextPoint]].amount
            nextPoint += 1
        }
        var index = 0
        while index < events.count {
            let time = events[index].time
            while index < events.count && events[index].time == time {
                let event = events[index]
                let sample = samples[event.sample]
                active.change(sample.source, by: event.delta, rate: sample.amount / (sample.end - sample.start))
                index += 1
            }
            let until = index < events.count ? events[index].time : day.upperBound
            // Instants in [time, until): covered as the stretch is.
            while nextPoint < points.count && samples[points[nextPoint]].start < until {
                let point = samples[points[nextPoint]]
                if let best = active.best(rank), rank[best] < rank[point.source] {
                    result.overlapped[point.source, default: 0] += point.amount
                } else {
                    result.counted[point.source, default: 0] += point.amount
                }
                nextPoint += 1
            }
            guard until > time, let best = active.best(rank) else { continue }
            let length = until - time
            for source in active.sources {
                let amount = active.rate[source] * length
                if source == best {
                    result.counted[source, default: 0] += amount
                } else {
                    result.overlapped[source, default: 0] += amount
                }
            }
        }
        return result
    }

    /// Sleep: at each moment the best-placed source that says anything of sleep stages (asleep
    /// or awake) decides; its asleep time counts (each moment once, so nested or repeated
    /// sessions never add up), and other sources' asleep time then is overlap. In bed is any
    /// source's in-bed time, once.
    static func sleep(_ samples: [DaySample], in day: Range<Double>, rank: [Int]) -> SweepResult {
        var result = SweepResult()
        var asleep = [Int](repeating: 0, count: rank.count)
        var awake = [Int](repeating: 0, count: rank.count)
        var inBed = 0
        var ignored: [Int] = []
        let events = self.events(samples, in: day, points: &ignored)
        var index = 0
        while index < events.count {
            let time = events[index].time
            while index < events.count && events[index].time == time {
                let event = events[index]
                let sample = samples[event.sample]
                switch sample.stage {
                case .asleep: asleep[sample.source] += event.delta
                case .awake: awake[sample.source] += event.delta
                case .inBed: inBed += event.delta
                case nil: break
                }
                index += 1
            }
            let until = index < events.count ? events[index].time : day.upperBound
            guard until > time else { continue }
            let length = until - time
            if inBed > 0 { result.inBedSeconds += length }
            var best: Int?
            for source in rank.indices where asleep[source] > 0 || awake[source] > 0 {
                if best.map({ rank[source] < rank[$0] }) ?? true { best = source }
            }
            guard let best else { continue }
            let bestIsAsleep = asleep[best] > 0 && awake[best] == 0
            for source in rank.indices where asleep[source] > 0 {
                if source == best && bestIsAsleep {
                    result.counted[source, default: 0] += length
                    if result.firstAsleep == nil { result.firstAsleep = time }
                } else {
                    result.overlapped[source, default: 0] += length
                }
            }
        }
        return result
    }

    /// Starts and ends of the samples with a duration, clipped to the day, in time order; the
    /// samples without one (in the day) go to `points`.
    private static func events(_ samples: [DaySample], in day: Range<Double>, points: inout [Int]) -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(samples.count * 2)
        for (index, sample) in samples.enumerated() {
            guard sample.end > sample.start else {
                if day.contains(sample.start) { points.append(index) }
                continue
            }
            let start = max(sample.start, day.lowerBound)
            let end = min(sample.end, day.upperBound)
            guard start < end else { continue }
            events.append(Event(time: start, delta: 1, sample: index))
            events.append(Event(time: end, delta: -1, sample: index))
        }
        events.sort { ($0.time, $0.delta) < ($1.time, $1.delta) }
        return events
    }
}

/// The sources covering the current stretch: how many of each one's samples, and their amount
/// per second added up.
private struct ActiveSources {
    var counts: [Int]
    var rate: [Double]
    private(set) var sources: [Int] = []

    init(count: Int) {
        counts = [Int](repeating: 0, count: count)
        rate = [Double](repeating: 0, count: count)
    }

    mutating func change(_ source: Int, by delta: Int, rate sampleRate: Double) {
        counts[source] += delta
        if counts[source] == 0 {
            // Exactly nothing when nothing covers it: no rounding left from adding and taking away.
            rate[source] = 0
            sources.removeAll { $0 == source }
        } else {
            rate[source] += Double(delta) * sampleRate
            if delta > 0 && counts[source] == 1 { sources.append(source) }
        }
    }

    func best(_ rank: [Int]) -> Int? {
        sources.min { rank[$0] < rank[$1] }
    }
}

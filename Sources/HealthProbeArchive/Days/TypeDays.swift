import Foundation

/// One type's days as its samples stream past in start order: the samples still open (a
/// cumulative or sleep sample may reach into later days), or a discrete type's running figures,
/// and its sources in the type's order.
struct TypeDays {
    let type: String
    let kind: DayFigure.Kind
    private let order: SourceOrder
    private let arrivals: [String: Double]
    private(set) var sources: [SourceOrder.Source] = []
    private var sourceIndex: [String: Int] = [:]
    /// Rows come in runs of one source: the last one's number, without a lookup.
    private var lastSource: (name: String, index: Int)?
    /// Each source's rank (0 best), by index; made again when a source appears.
    private var rank: [Int] = []
    /// The unit figures are given in: the catalog's for a type it knows in a convertible unit (a
    /// day's figure is then in one unit whatever period is read), else the first sample's;
    /// others are converted to it.
    private var unit: String?
    private var unitDimension = ""
    private var unitFactor = 1.0
    private var open: [DaySample] = []
    private var discrete: [Int64: DiscreteDay] = [:]
    /// The discrete day samples are arriving in, kept apart from `discrete` until the next day.
    private var runningDay = Int64.min
    private var running = DiscreteDay()
    private var copies: [Int64: Int] = [:]
    /// Exact copies share a start: the keys of the current start instant are all that are kept,
    /// the first of them alone until a second sample shares its start (most never do).
    private var seenStart = -Double.infinity
    private var firstAtStart: CopyKey?
    private var seen: Set<CopyKey> = []

    private struct CopyKey: Hashable {
        var source: Int
        var end: Double
        var amount: Double
        var stage: Int
    }

    private struct DiscreteDay {
        var count = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        /// Samples by source number.
        var bySource: [Int] = []

        mutating func add(_ amount: Double, source: Int) {
            count += 1
            sum += amount
            minimum = min(minimum, amount)
            maximum = max(maximum, amount)
            if source >= bySource.count { bySource += [Int](repeating: 0, count: source + 1 - bySource.count) }
            bySource[source] += 1
        }

        var samplesBySource: [Int: Int] {
            Dictionary(
                uniqueKeysWithValues: bySource.enumerated().filter { $0.element > 0 }.map { ($0.offset, $0.element) })
        }
    }

    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    static func night(of day: Range<Double>) -> Range<Double> {
        (day.lowerBound - DayFigure.nightBeforeMidnight)..<(day.upperBound - DayFigure.nightBeforeMidnight)
    }

    init(type: String, order: SourceOrder, arrivals: [String: Double]) {
        self.type = type
        self.order = order
        self.arrivals = arrivals
        if type == Self.sleepType {
            kind = .sleep
        } else if HealthKitCatalog.dailyAggregation(of: type, hasValues: true) == .sum {
            kind = .cumulative
        } else {
            kind = .discrete
        }
        // A unit of a dimension other units convert to (km, kcal, kg, m/s…): others are written
        // in it; a unit only its own records use (count, ml/kg*min) stays the records'.
        if kind != .sleep, let known = HealthKitCatalog.type(type)?.unit,
            CanonicalUnit.convert(1, from: known).dimension != known
        {
            setUnit(known)
        }
    }

    private mutating func setUnit(_ newUnit: String?) {
        unit = newUnit
        let canonical = CanonicalUnit.convert(1, from: newUnit)
        unitDimension = canonical.dimension
        unitFactor = canonical.amount
    }

    /// Takes one record; `day` is the local day of its start (for a discrete type's figures).
    mutating func add(
        source name: String, tier: SourceTier, start: Double, end: Double, amount: Double?, unit recordUnit: String?,
        category: String?, day: Int64
    ) {
        let source = sourceNumber(name, tier: tier)
        var sample = DaySample(source: source, start: start, end: max(end, start), amount: 0, stage: nil)
        if kind == .sleep {
            guard let stage = Self.stage(category) else { return }
            sample.stage = stage
        } else {
            guard let amount, let converted = convert(amount, from: recordUnit) else { return }
            sample.amount = converted
        }
        // A discrete reading two sources hold alike (a heart rate another app wrote back) is one
        // reading: its copy key leaves the source out. Elsewhere the source order decides.
        let key = CopyKey(
            source: kind == .discrete ? -1 : source, end: sample.end, amount: sample.amount,
            stage: sample.stage?.rawValue ?? 0)
        if start != seenStart {
            seenStart = start
            firstAtStart = key
            if !seen.isEmpty { seen.removeAll(keepingCapacity: true) }
        } else {
            if seen.isEmpty, let firstAtStart { seen.insert(firstAtStart) }
            guard seen.insert(key).inserted else {
                copies[day, default: 0] += 1
                return
            }
        }
        if kind == .discrete {
            if day != runningDay {
                if runningDay != .min { discrete[runningDay] = running }
                runningDay = day
                running = discrete.removeValue(forKey: day) ?? DiscreteDay()
            }
            running.add(sample.amount, source: source)
        } else {
            open.append(sample)
        }
    }

    /// The figure of a day whose every sample has been read (the stream is past its end), and
    /// the samples that end in it let go.
    mutating func finish(day: Int64, span: Range<Double>) -> DayFigure? {
        switch kind {
        case .discrete:
            let held: DiscreteDay?
            if day == runningDay {
                held = running
                runningDay = .min
            } else {
                held = discrete.removeValue(forKey: day)
            }
            guard let figures = held else { return nil }
            let parts = sourceParts(counted: [:], overlapped: [:], samples: figures.samplesBySource)
            return DayFigure(
                type: type, day: day, kind: kind, unit: unit, value: figures.sum / Double(figures.count),
                minimum: figures.minimum, maximum: figures.maximum, inBed: nil, asleepFrom: nil, longestAsleep: nil,
                samples: figures.count,
                copies: copies.removeValue(forKey: day) ?? 0, sources: parts)
        case .cumulative, .sleep:
            // A sample counts on a day it started at most the lookback before (the day's own
            // rule, the same whatever period is read: a long sample's later days lack it).
            let earliest = span.lowerBound - ArchiveStore.dayFigureLookback - DayFigure.nightBeforeMidnight
            // A night is never cut: a day's sleep is the night that ends on it.
            let span = kind == .sleep ? Self.night(of: span) : span
            let touching = open.filter { sample in
                guard sample.start >= earliest else { return false }
                return sample.end > sample.start
                    ? sample.end > span.lowerBound && sample.start < span.upperBound : span.contains(sample.start)
            }
            open.removeAll { $0.end > $0.start ? $0.end <= span.upperBound : $0.start < span.upperBound }
            guard !touching.isEmpty else {
                copies[day] = nil
                return nil
            }
            var samples: [Int: Int] = [:]
            for sample in touching { samples[sample.source, default: 0] += 1 }
            let copyCount = copies.removeValue(forKey: day) ?? 0
            if kind == .sleep {
                let result = DaySweep.sleep(touching, in: span, rank: rank)
                let hours = { (seconds: [Int: Double]) in seconds.mapValues { $0 / 3600 } }
                let parts = sourceParts(
                    counted: hours(result.counted), overlapped: hours(result.overlapped), samples: samples)
                return DayFigure(
                    type: type, day: day, kind: kind, unit: "hr", value: parts.reduce(0) { $0 + $1.counted },
                    minimum: nil, maximum: nil, inBed: result.inBedSeconds / 3600, asleepFrom: result.firstAsleep,
                    longestAsleep: longestAsleep(touching), samples: touching.count,
                    copies: copyCount, sources: parts)
            }
            let result = DaySweep.cumulative(touching, in: span, rank: rank)
            let parts = sourceParts(counted: result.counted, overlapped: result.overlapped, samples: samples)
            return DayFigure(
                type: type, day: day, kind: kind, unit: unit, value: parts.reduce(0) { $0 + $1.counted },
                minimum: nil, maximum: nil, inBed: nil, asleepFrom: nil, longestAsleep: nil, samples: touching.count,
                copies: copyCount,
                sources: parts)
        }
    }

    /// The longest sample of time asleep among `samples`, with its source.
    private func longestAsleep(_ samples: [DaySample]) -> DayFigure.Entry? {
        samples.filter { $0.stage == .asleep }.max { $0.end - $0.start < $1.end - $1.start }.map {
            DayFigure.Entry(
                source: sources[$0.source].name, tier: sources[$0.source].tier, start: $0.start, end: $0.end)
        }
    }

    /// Each source that touched the day, in the type's order.
    private func sourceParts(counted: [Int: Double], overlapped: [Int: Double], samples: [Int: Int])
        -> [DayFigure.SourcePart]
    {
        samples.keys.sorted { rank[$0] < rank[$1] }.enumerated().map { place, source in
            DayFigure.SourcePart(
                source: sources[source].name, place: place + 1, tier: sources[source].tier,
                counted: counted[source] ?? 0, overlapped: overlapped[source] ?? 0, samples: samples[source] ?? 0)
        }
    }

    private mutating func sourceNumber(_ name: String, tier: SourceTier) -> Int {
        if let lastSource, lastSource.name == name { return lastSource.index }
        if let known = sourceIndex[name] {
            lastSource = (name, known)
            return known
        }
        sources.append(SourceOrder.Source(name: name, tier: tier, firstWritten: arrivals[name]))
        sourceIndex[name] = sources.count - 1
        let ordered = order.ordered(sources)
        rank = [Int](repeating: 0, count: sources.count)
        for (place, source) in ordered.enumerated() { rank[sourceIndex[source.name]!] = place }
        return sources.count - 1
    }

    /// An amount in the type's unit; nil for a unit of another dimension.
    private mutating func convert(_ amount: Double, from recordUnit: String?) -> Double? {
        if unit == nil, recordUnit != nil || kind == .discrete { setUnit(recordUnit) }
        guard recordUnit != unit else { return amount }
        let canonical = CanonicalUnit.convert(amount, from: recordUnit)
        guard canonical.dimension == unitDimension, unitFactor != 0 else { return nil }
        return canonical.amount / unitFactor
    }

    private static func stage(_ value: String?) -> DaySample.Stage? {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed": .inBed
        case "HKCategoryValueSleepAnalysisAwake": .awake
        case let value? where value.hasPrefix("HKCategoryValueSleepAnalysisAsleep"): .asleep
        default: nil
        }
    }
}

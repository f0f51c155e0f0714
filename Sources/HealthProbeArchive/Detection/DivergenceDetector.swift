internal import GRDB

/// `divergence`: a sample type's daily series (the local days of the archive's zone, ``LocalDayBins``: sums for cumulative types, means
/// for discrete ones, counts for the rest) departs from its own baseline in the recent window.
/// Changes to past days are reported record by record by the other detectors, so only the
/// window before the export counts, and a type whose recent window holds records already reported
/// one by one (duplicates, overlaps, backfills, losses, rewrites — in this capture or an open
/// anomaly of the window) is not reported again as a drift. A divergence still open from the
/// previous capture is not reported again either. Types without enough history are named in a
/// note instead.
struct DivergenceDetector {
    let pair: CapturePair
    let thresholds: Thresholds

    struct Outcome {
        var findings: [Finding] = []
        /// Sample types the test could not judge for lack of history.
        var untested: [String] = []
    }

    /// `explained`: sample types this capture's other detectors reported.
    func detect(_ db: Database, explained: Set<String>) throws -> Outcome {
        var local = LocalDays(zone: pair.dayZone)
        let exportDay = local.day(of: pair.current.date)
        let recentStart = exportDay - Int64(thresholds.divergenceRecentDays)
        let baselineStart = recentStart - Int64(thresholds.divergenceBaselineDays)
        let days = try LocalDayBins.read(db, pair: pair, days: baselineStart..<exportDay, local: &local)
        let stillOpen = Set(
            try String.fetchAll(
                db,
                sql:
                    "SELECT sampleType FROM anomaly WHERE captureId = ? AND type = 'divergence' AND resolvedAt IS NULL",
                arguments: [pair.previous?.id ?? -1]))
        let explainedInWindow = explained.union(
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT a.sampleType FROM anomaly AS a JOIN capture AS c ON c.id = a.captureId
                    WHERE a.resolvedAt IS NULL AND a.withdrawnAt IS NULL AND a.type NOT IN ('divergence') AND c.origin = ?
                        AND COALESCE(c.exportDate, c.startedAt) >= ?
                    """, arguments: [pair.current.origin.rawValue, local.start(of: recentStart)]))
        var outcome = Outcome()
        for (type, bins) in days.bins.sorted(by: { $0.key < $1.key }) {
            let limits = thresholds.applying(to: type)
            let series = DailySeries(bins: bins, type: type, firstDay: days.firstDay[type] ?? baselineStart)
            let baseline = series.values(from: max(baselineStart, series.firstDay), to: recentStart)
            let recent = series.values(from: max(recentStart, series.firstDay), to: exportDay)
            guard baseline.count >= limits.divergenceMinimumBaselineDays,
                recent.count >= limits.divergenceMinimumRecentDays
            else {
                if !recent.isEmpty { outcome.untested.append(type) }
                continue
            }
            let engine = DivergenceEngine(
                sigmaRatioLimit: limits.divergenceSigmaRatio,
                minimumRelativeSigma: limits.divergenceMinimumRelativeSigma,
                levelShiftLimit: limits.divergenceLevelShift)
            guard let result = engine.evaluate(baseline: baseline, recent: recent), result.fired,
                !stillOpen.contains(type), !explainedInWindow.contains(type)
            else { continue }
            outcome.findings.append(
                finding(
                    type, result, series: series, window: (recentStart, exportDay - 1), baseline: baseline,
                    recent: recent))
        }
        return outcome
    }

    private func finding(
        _ sampleType: String, _ result: DivergenceEngine.Result, series: DailySeries, window: (Int64, Int64),
        baseline: [Double], recent: [Double]
    ) -> Finding {
        let limits = thresholds.applying(to: sampleType)
        let direction = result.shift < 0 ? "down" : "up"
        let tests = [result.sigmaRatioFired ? "sigmaRatio" : nil, result.levelShiftFired ? "levelShift" : nil]
            .compactMap { $0 }.joined(separator: ", ")
        let window = "\(UTCText.day(window.0)) – \(UTCText.day(window.1))"
        let evidence = [
            "tests": tests, "sigmaRatio": String(format: "%.2f", result.sigmaRatio),
            "shiftPercent": EvidenceText.percent(result.shift), "direction": direction, "recentWindow": window,
            "baselineDays": String(limits.divergenceBaselineDays), "aggregation": series.aggregationName,
        ]
        return Finding(
            type: .divergence, severity: result.shift <= -limits.divergenceWarningDrop ? .warning : .info,
            sampleType: sampleType,
            summary: Self.summary(
                of: sampleType, result, aggregation: series.aggregationName, window: window, baseline: baseline,
                recent: recent),
            recordCount: recent.count, evidence: evidence)
    }

    /// From nothing (a baseline whose median is zero) a percentage says nothing: the type
    /// started being recorded, on so many days of each window; to nothing, it stopped.
    static func summary(
        of sampleType: String, _ result: DivergenceEngine.Result, aggregation: String, window: String,
        baseline: [Double], recent: [Double]
    ) -> String {
        let name = HealthKitCatalog.displayName(of: sampleType)
        let recorded = { (days: [Double]) in days.filter { $0 != 0 }.count }
        if result.shift > 0 && DivergenceEngine.median(baseline) == 0 {
            let before = recorded(baseline)
            return "\(name) started being recorded: on \(recorded(recent)) of the \(recent.count) days over \(window), "
                + (before == 0
                    ? "none in the \(baseline.count) days before"
                    : "on \(before) of the \(baseline.count) days before")
        }
        if result.shift < 0 && recorded(recent) == 0 {
            return "\(name) stopped being recorded: none over \(window), against \(recorded(baseline)) of the "
                + "\(baseline.count) days before"
        }
        return "daily \(name) \(aggregation) went \(result.shift < 0 ? "down" : "up") "
            + "\(EvidenceText.percent(abs(result.shift)))% over \(window) against the \(baseline.count) days before"
    }
}

/// One type's daily values from its local day bins, with missing days filled as the aggregation says.
struct DailySeries {
    let aggregation: HealthKitCatalog.DailyAggregation
    let firstDay: Int64
    private var byDay: [Int64: Double] = [:]

    init(bins: [Int64: LocalDayBins.Bin], type: String, firstDay: Int64) {
        let hasValues = bins.values.contains { $0.valueCount > 0 }
        aggregation = HealthKitCatalog.dailyAggregation(of: type, hasValues: hasValues)
        self.firstDay = firstDay
        for (day, bin) in bins {
            switch aggregation {
            case .sum: byDay[day] = bin.valueSum
            case .mean: if bin.valueCount > 0 { byDay[day] = bin.valueSum / Double(bin.valueCount) }
            case .count: byDay[day] = Double(bin.count)
            }
        }
    }

    var aggregationName: String {
        switch aggregation {
        case .sum: "total"
        case .mean: "mean"
        case .count: "count"
        }
    }

    /// Values of days in `start..<end`: a missing day is zero for sums and counts, absent for means.
    func values(from start: Int64, to end: Int64) -> [Double] {
        guard start < end else { return [] }
        return (start..<end).compactMap { day in
            byDay[day] ?? (aggregation == .mean ? nil : 0)
        }
    }
}

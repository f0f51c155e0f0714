internal import GRDB

/// `divergence`: a sample type's daily series (C's day bins: sums for cumulative types, means
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
        let exportDay = UTCDay.of(pair.current.date)
        let recentStart = exportDay - Int64(thresholds.divergenceRecentDays)
        let baselineStart = recentStart - Int64(thresholds.divergenceBaselineDays)
        let bins = try Row.fetchAll(
            db,
            sql: """
                SELECT type, day, count, valueSum, valueCount FROM typeDayBin
                WHERE captureId = ? AND day >= ? AND day < ? ORDER BY type, day
                """, arguments: [pair.current.id, baselineStart, exportDay])
        let firstDays = try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(
                db, sql: "SELECT type, MIN(day) AS first FROM typeDayBin WHERE captureId = ? GROUP BY type",
                arguments: [pair.current.id]
            ).map { ($0["type"] as String, $0["first"] as Int64) })
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
                    """, arguments: [pair.current.origin.rawValue, Double(recentStart) * 86_400]))
        var outcome = Outcome()
        for (type, rows) in Dictionary(grouping: bins, by: { $0["type"] as String }).sorted(by: { $0.key < $1.key }) {
            let limits = thresholds.applying(to: type)
            let series = DailySeries(rows: rows, type: type, firstDay: firstDays[type] ?? baselineStart)
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
                    type, result, series: series, window: (recentStart, exportDay - 1), recentDays: recent.count,
                    started: baseline.allSatisfy { $0 == 0 }, stopped: recent.allSatisfy { $0 == 0 }))
        }
        return outcome
    }

    private func finding(
        _ sampleType: String, _ result: DivergenceEngine.Result, series: DailySeries, window: (Int64, Int64),
        recentDays: Int, started: Bool, stopped: Bool
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
        let daily = "daily \(HealthKitCatalog.displayName(of: sampleType)) \(series.aggregationName)"
        // From nothing, a percentage says nothing: logging started (or, to nothing, stopped).
        let summary =
            started && result.shift > 0
            ? "\(daily) started: recorded over \(window), none in the \(limits.divergenceBaselineDays) days before"
            : stopped && result.shift < 0
                ? "\(daily) stopped: none over \(window), against the \(limits.divergenceBaselineDays) days before"
                : "\(daily) went \(direction) \(EvidenceText.percent(abs(result.shift)))% over \(window) against the "
                    + "\(limits.divergenceBaselineDays) days before"
        return Finding(
            type: .divergence, severity: result.shift <= -limits.divergenceWarningDrop ? .warning : .info,
            sampleType: sampleType, summary: summary, recordCount: recentDays, evidence: evidence)
    }
}

/// One type's daily values from its day bins, with missing days filled as the aggregation says.
struct DailySeries {
    let aggregation: HealthKitCatalog.DailyAggregation
    let firstDay: Int64
    private var byDay: [Int64: Double] = [:]

    init(rows: [Row], type: String, firstDay: Int64) {
        let hasValues = rows.contains { ($0["valueCount"] as Int) > 0 }
        aggregation = HealthKitCatalog.dailyAggregation(of: type, hasValues: hasValues)
        self.firstDay = firstDay
        for row in rows {
            let count: Int = row["count"]
            let valueCount: Int = row["valueCount"]
            let sum = (row["valueSum"] as Double?) ?? 0
            switch aggregation {
            case .sum: byDay[row["day"]] = sum
            case .mean: if valueCount > 0 { byDay[row["day"]] = sum / Double(valueCount) }
            case .count: byDay[row["day"]] = Double(count)
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

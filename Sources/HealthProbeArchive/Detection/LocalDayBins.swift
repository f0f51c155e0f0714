internal import GRDB

/// The records a capture holds over a period of local days of the archive's zone (the days
/// every face shows), by type and day: counts and sums of numeric values. Read by quarter hour
/// through the index on start dates, so a window of a few weeks reads those weeks' records, not
/// the archive; a meal logged at 00:10 local time falls on its own day, not UTC's day before.
struct LocalDayBins {
    struct Bin {
        var count = 0
        var valueSum = 0.0
        var valueCount = 0
    }

    /// Each type's bins by local day.
    var bins: [String: [Int64: Bin]] = [:]
    /// Each type's first local day in the capture, where it falls in the period; a type with
    /// records before the period has none here (its history reaches back past it).
    var firstDay: [String: Int64] = [:]

    static func read(_ db: Database, pair: CapturePair, days: Range<Int64>, local: inout LocalDays) throws
        -> LocalDayBins
    {
        var result = LocalDayBins()
        guard !days.isEmpty else { return result }
        let from = local.start(of: days.lowerBound)
        let to = local.start(of: days.upperBound)
        // A type whose first UTC day is before the one `from` falls on began before the period;
        // one beginning on that day or later has its first record read below (from a day earlier).
        let fromUTCDay = UTCDay.of(from)
        let earlier = Set(
            try String.fetchAll(
                db,
                sql: "SELECT type FROM typeDayBin WHERE captureId = ? GROUP BY type HAVING MIN(day) < ?",
                arguments: [pair.current.id, fromUTCDay]))
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT type, \(LocalQuarters.sql("startDate")) AS quarter, COUNT(*) AS count,
                    SUM(numericValue) AS valueSum, COUNT(numericValue) AS valueCount
                FROM record \(RecordSightings.join)
                WHERE startDate >= :lower AND startDate < :to AND \(pair.heldByCurrent)
                GROUP BY type, quarter
                """,
            arguments: ["lower": Double(fromUTCDay) * 86_400, "to": to, "current": pair.current.id])
        var startedBefore = earlier
        while let row = try rows.next() {
            let type: String = row["type"]
            let quarter: Int64 = row["quarter"]
            if LocalQuarters.start(quarter) < from {
                startedBefore.insert(type)
                continue
            }
            let day = local.day(ofQuarter: quarter)
            if !startedBefore.contains(type) { result.firstDay[type] = min(result.firstDay[type] ?? day, day) }
            var bin = result.bins[type, default: [:]][day, default: Bin()]
            bin.count += row["count"] as Int
            bin.valueSum += (row["valueSum"] as Double?) ?? 0
            bin.valueCount += row["valueCount"] as Int
            result.bins[type, default: [:]][day] = bin
        }
        for type in startedBefore { result.firstDay[type] = nil }
        return result
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The statements a plan runs, in order: the person, metric types and devices; weeks and days;
/// each day's summary, sleep and workouts; the anomalies and the days they affect; then the
/// days left empty, the `NEXT_DAY` chain around the changed days, `FOLLOWED_BY`, and the
/// `Sync` node. Every statement merges or removes by key, so running them again changes nothing.
extension GraphSyncPlan {
    func writes(_ statements: GraphStatements) -> [GraphWrite] {
        let written = daysWritten
        let emptied = changedDays.filter { contents[$0]?.hasData != true }
        let writtenContents = written.compactMap { contents[$0] }
        var writes: [GraphWrite] = [GraphWrite(statements.person, [.null], merges: ["Person"])]
        if isFirst {
            writes.append(GraphWrite(statements.metricTypes, Self.metricTypeRows, merges: ["MetricType"]))
        }
        let devices = Set(writtenContents.flatMap(\.devices)).sorted()
        writes.append(
            GraphWrite(
                statements.devices, devices.map { .map([("name", .string($0))]) }, merges: ["Device", "USES"]))
        let weeks = Set(written.map(\.isoWeek)).sorted { $0.monday < $1.monday }
        writes.append(GraphWrite(statements.weeks, weeks.map(Self.weekRow), merges: ["Week"]))
        writes.append(
            GraphWrite(
                statements.days,
                writtenContents.map { content in
                    .map([
                        ("date", .string(content.day.description)), ("day_of_week", .string(content.day.weekdayName)),
                        ("week", .string(content.day.isoWeek.iso)), ("rings", .map(content.ringValues)),
                    ])
                }, merges: ["Day", "PART_OF"]))
        writes.append(
            GraphWrite(
                statements.summaries,
                writtenContents.map { .map([("date", .string($0.day.description)), ("values", .map($0.summary))]) },
                merges: ["DailySummary", "HAS_SUMMARY"]))
        let sleeping = writtenContents.compactMap { content in
            content.sleepSession.map {
                CypherValue.map([("date", .string(content.day.description)), ("values", .map($0))])
            }
        }
        writes.append(GraphWrite(statements.sleepSessions, sleeping, merges: ["SleepSession", "ON_DAY"]))
        let sleepless = changedDays.filter { contents[$0]?.sleepSession == nil }
        writes.append(
            GraphWrite(
                statements.removeSleepSessions, sleepless.filter(previousDataDays.contains).map(Self.dateValue),
                removes: "SleepSession"))
        writes.append(contentsOf: workoutWrites(statements))
        writes.append(contentsOf: anomalyWrites(statements))
        writes.append(
            GraphWrite(
                statements.removeSummaries, emptied.filter(previousDataDays.contains).map(Self.dateValue),
                removes: "DailySummary"))
        writes.append(GraphWrite(statements.removeDays, emptied.map(Self.dateValue), removes: "Day"))
        writes.append(contentsOf: chainWrites(statements))
        writes.append(contentsOf: sleepLinkWrites(statements))
        writes.append(GraphWrite(statements.sync, [syncRow], merges: ["Sync"]))
        return writes.filter { !$0.rows.isEmpty }
    }

    /// What the plan writes, counted (the same whatever the destination keys days by).
    public var outline: GraphOutline { GraphOutline(writes(GraphStatements(key: .text))) }

    private func workoutWrites(_ statements: GraphStatements) -> [GraphWrite] {
        let changedWorkouts = changedDays.map { day in (day, contents[day]?.workouts ?? []) }
        let kept = changedWorkouts.map { day, workouts in
            CypherValue.map([
                ("date", .string(day.description)), ("uids", .list(workouts.map { .string($0.uid) })),
            ])
        }
        let workouts = changedWorkouts.flatMap(\.1)
        return [
            GraphWrite(statements.removeWorkouts, kept, removes: nil),
            GraphWrite(
                statements.workouts,
                workouts.map {
                    .map([
                        ("uid", .string($0.uid)), ("date", .string($0.day.description)),
                        ("values", .map($0.properties)),
                    ])
                }, merges: ["Workout", "ON_DAY"]),
            GraphWrite(
                statements.recorded,
                workouts.compactMap { workout in
                    workout.device.map { .map([("uid", .string(workout.uid)), ("device", .string($0))]) }
                }, merges: ["RECORDED"]),
        ]
    }

    private func anomalyWrites(_ statements: GraphStatements) -> [GraphWrite] {
        [
            GraphWrite(
                statements.anomalies,
                anomalies.map {
                    .map(
                        [
                            ("id", .integer($0.id)), ("sample_type", .string($0.sampleType)),
                            ("values", .map($0.properties)),
                        ]
                            + Self.metricTypeFields($0.sampleType))
                }, merges: ["Anomaly", "OF_TYPE"]),
            GraphWrite(
                statements.unlinkAffected,
                anomalies.map { anomaly in
                    .map([
                        ("id", .integer(anomaly.id)), ("days", .list(anomaly.days.map { .string($0.description) })),
                    ])
                }),
            GraphWrite(
                statements.affects,
                anomalies.flatMap { anomaly in
                    anomaly.days.map { day in
                        let week = day.isoWeek
                        return CypherValue.map([
                            ("id", .integer(anomaly.id)), ("date", .string(day.description)),
                            ("day_of_week", .string(day.weekdayName)), ("week", .string(week.iso)),
                            ("year", .integer(Int64(week.year))), ("week_number", .integer(Int64(week.number))),
                            ("start_date", .string(week.monday.description)),
                        ])
                    }
                }, merges: ["AFFECTS"]),
        ]
    }

    /// The `NEXT_DAY` links around the changed days: each changed day and its neighbours before
    /// and after the sync keep exactly their links in the new chain of days with data.
    private func chainWrites(_ statements: GraphStatements) -> [GraphWrite] {
        let before = previousDataDays.sorted()
        let after = dataDays.sorted()
        var neighbourhood = Set(changedDays)
        for day in changedDays {
            for chain in [before, after] {
                if let previous = Self.neighbour(of: day, in: chain, after: false) { neighbourhood.insert(previous) }
                if let next = Self.neighbour(of: day, in: chain, after: true) { neighbourhood.insert(next) }
            }
        }
        let afterSet = Set(after)
        let rows = neighbourhood.sorted().map { day -> (LocalDay, LocalDay?, LocalDay?) in
            guard afterSet.contains(day) else { return (day, nil, nil) }
            return (
                day, Self.neighbour(of: day, in: after, after: false), Self.neighbour(of: day, in: after, after: true)
            )
        }
        let unlink = rows.map { day, previous, next in
            CypherValue.map([
                ("date", .string(day.description)), ("previous", previous.map(Self.dateValue) ?? .null),
                ("next", next.map(Self.dateValue) ?? .null),
            ])
        }
        let link = rows.compactMap { day, _, next in
            next.map { CypherValue.map([("date", .string(day.description)), ("next", .string($0.description))]) }
        }
        return [
            GraphWrite(statements.unlinkFollowingDays, unlink),
            GraphWrite(statements.unlinkPrecedingDays, unlink),
            GraphWrite(statements.linkDays, link, merges: ["NEXT_DAY"]),
        ]
    }

    /// The day before or after `day` in a sorted chain (whether or not `day` is in it).
    static func neighbour(of day: LocalDay, in chain: [LocalDay], after: Bool) -> LocalDay? {
        var low = 0
        var high = chain.count
        while low < high {
            let middle = (low + high) / 2
            if chain[middle] < day { low = middle + 1 } else { high = middle }
        }
        if after {
            let index = low < chain.count && chain[low] == day ? low + 1 : low
            return index < chain.count ? chain[index] : nil
        }
        return low > 0 ? chain[low - 1] : nil
    }

    /// `FOLLOWED_BY` from each workout of a changed day, or of the day before one, to the first
    /// sleep that starts after it ends, that day or the next.
    private func sleepLinkWrites(_ statements: GraphStatements) -> [GraphWrite] {
        let days = Set(changedDays.flatMap { [$0.adding(-1), $0] }).sorted()
        let links = days.flatMap { day in
            (contents[day]?.workouts ?? []).map { workout in
                // A day's sleep starts where its first asleep sample does (it has one iff it has sleep).
                let sleep = [day, day.adding(1)].lazy.compactMap { candidate -> (day: LocalDay, start: Double)? in
                    guard let start = self.contents[candidate]?.sleepStart, start >= workout.end else { return nil }
                    return (candidate, start)
                }.first
                return (workout: workout, sleep: sleep)
            }
        }
        func row(_ link: (workout: GraphWorkout, sleep: (day: LocalDay, start: Double)?)) -> CypherValue {
            .map([
                ("uid", .string(link.workout.uid)), ("sleep", link.sleep.map { .string($0.day.description) } ?? .null),
                (
                    "hours_between",
                    link.sleep.map { .float((($0.start - link.workout.end) / 360).rounded() / 10) } ?? .null
                ),
            ])
        }
        return [
            GraphWrite(statements.unlinkSleep, links.map(row)),
            GraphWrite(statements.linkSleep, links.filter { $0.sleep != nil }.map(row), merges: ["FOLLOWED_BY"]),
        ]
    }

    private var syncRow: CypherValue {
        .map([
            ("id", .integer(Int64(syncNumber))),
            (
                "values",
                .map([
                    ("at", .string(UTCText.iso8601(seconds: next.syncedAt.timeIntervalSince1970.rounded(.down)))),
                    ("capture", .integer(next.captureId)), ("days_written", .integer(Int64(daysWritten.count))),
                    ("days_removed", .integer(Int64(daysRemoved.count))),
                    ("anomalies", .integer(Int64(anomalies.count))), ("time_zone", .string(next.timeZone)),
                ])
            ),
        ])
    }

    static func dateValue(_ day: LocalDay) -> CypherValue { .string(day.description) }

    static func weekRow(_ week: ISOWeek) -> CypherValue {
        .map([
            ("iso", .string(week.iso)), ("year", .integer(Int64(week.year))),
            ("week_number", .integer(Int64(week.number))), ("start_date", .string(week.monday.description)),
        ])
    }

    static var metricTypeRows: [CypherValue] {
        var seen = Set<String>()
        return SummaryMetric.all.compactMap { metric in
            guard seen.insert(metric.sampleType).inserted else { return nil }
            return .map([("identifier", .string(metric.sampleType))] + metricTypeFields(metric.sampleType))
        }
    }

    /// A metric type's properties, the same whether a summary or an anomaly makes its node.
    static func metricTypeFields(_ sampleType: String) -> [(String, CypherValue)] {
        let unit = SummaryMetric.all.first { $0.sampleType == sampleType }?.unitName
        return [
            ("display_name", .string(HealthKitCatalog.shortName(of: sampleType))),
            ("unit", unit.map(CypherValue.string) ?? .null),
            ("category", .string(sampleType.hasPrefix(SummaryMetric.category) ? "category" : "quantity")),
        ]
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// One sync's statements, made and sent in order, a month of days at a time, so that memory
/// holds one month's content and rows whatever the length of the history: the person and the
/// metric types, the anomalies and the days they affect; then, for each month, its devices and
/// weeks, its days, summaries, sleep and workouts, its emptied days, and the `FOLLOWED_BY` links
/// of the month before (the next day's sleep is written by then); at the end the `NEXT_DAY`
/// chain around the changed days and the `Sync` node. Every statement merges or removes by key,
/// so running them again changes nothing. Nothing at all is sent when no day changed and no
/// anomaly is new.
struct GraphSyncPass {
    let plan: GraphSyncPlan
    let statements: GraphStatements
    private(set) var tally = GraphSyncTally()
    /// The person and metric types, sent before the first statement with rows.
    private var opening: [GraphWrite]
    private var weeksWritten = Set<ISOWeek>()
    private var devicesWritten = Set<String>()
    /// A month's `FOLLOWED_BY` links, sent after the next month's sleep.
    private var heldLinks: [GraphWrite] = []
    private let knownChanges: Set<LocalDay>?

    init(_ plan: GraphSyncPlan, _ statements: GraphStatements) {
        self.plan = plan
        self.statements = statements
        knownChanges = plan.changedDays.map(Set.init)
        opening = [GraphWrite(statements.person, [.null], merges: ["Person"])]
        if plan.isFirst {
            opening.append(GraphWrite(statements.metricTypes, Self.metricTypeRows, merges: ["MetricType"]))
        }
    }

    /// Reads the plan's days from its snapshot and gives each statement with rows to `send`.
    mutating func run(_ send: (GraphWrite) async throws -> Void) async throws {
        var reader = ArchiveDayReader(devices: plan.deviceNames, clock: LocalDayClock(defaultZone: plan.timeZone))
        try await emit(anomalyWrites(), send)
        for range in plan.ranges {
            var first = range.lowerBound
            while first <= range.upperBound {
                let last = min(first.adding(plan.chunkDays - 1), range.upperBound)
                // And the day after, where the run goes on: a workout of the month's last day may be
                // followed by that day's sleep. At a run's end the day after is neither changed nor
                // read (it would be in the run).
                let read = last < range.upperBound ? first...last.adding(1) : first...last
                var contents: [LocalDay: DayContent] = [:]
                try plan.snapshot.read { source in try reader.read(read, from: source, into: &contents) }
                let changed = Self.days(read).filter { isChanged($0, contents) }
                let month = MonthContent(days: first...last, changed: changed.filter { $0 <= last }, contents: contents)
                try await emit(monthWrites(month), send)
                try await emit(heldLinks, send)
                heldLinks = sleepLinkWrites(month, changedAfter: changed.last.map { $0 > last } ?? false)
                first = last.adding(1)
            }
        }
        try await emit(heldLinks, send)
        heldLinks = []
        guard !tally.changedDays.isEmpty || !plan.anomalies.isEmpty else { return }
        try await emit(chainWrites() + [syncWrite], send)
    }

    /// Whether `day` is rewritten: a later sync's changed day; on a first sync, every day with
    /// data and every day the destination held.
    private func isChanged(_ day: LocalDay, _ contents: [LocalDay: DayContent]) -> Bool {
        if let knownChanges { return knownChanges.contains(day) }
        return contents[day]?.hasData == true || plan.previousDataDays.contains(day)
    }

    private mutating func emit(_ writes: [GraphWrite], _ send: (GraphWrite) async throws -> Void) async throws {
        for write in writes where !write.rows.isEmpty {
            for held in opening + [write] {
                try await send(held)
                tally.outline.add(held)
                tally.writes += 1
            }
            opening = []
        }
    }

    /// A month's days as read, with the changed ones among them.
    struct MonthContent {
        let days: ClosedRange<LocalDay>
        let changed: [LocalDay]
        let contents: [LocalDay: DayContent]
    }

    private mutating func monthWrites(_ month: MonthContent) -> [GraphWrite] {
        let contents = month.contents
        let previousDataDays = plan.previousDataDays
        let written = month.changed.filter { contents[$0]?.hasData == true }
        let emptied = month.changed.filter { contents[$0]?.hasData != true }
        for day in written { tally.changedDays[day] = true }
        for day in emptied { tally.changedDays[day] = false }
        tally.daysRemoved += emptied.filter(previousDataDays.contains).count
        let writtenContents = written.compactMap { contents[$0] }
        var writes: [GraphWrite] = []
        let devices = Set(writtenContents.flatMap(\.devices)).subtracting(devicesWritten).sorted()
        devicesWritten.formUnion(devices)
        writes.append(
            GraphWrite(
                statements.devices, devices.map { .map([("name", .string($0))]) }, merges: ["Device", "USES"]))
        let weeks = Set(written.map(\.isoWeek)).subtracting(weeksWritten).sorted { $0.monday < $1.monday }
        weeksWritten.formUnion(weeks)
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
        let sleepless = month.changed.filter { contents[$0]?.sleepSession == nil }
        writes.append(
            GraphWrite(
                statements.removeSleepSessions, sleepless.filter(previousDataDays.contains).map(Self.dateValue),
                removes: "SleepSession"))
        writes.append(contentsOf: workoutWrites(month))
        writes.append(
            GraphWrite(
                statements.removeSummaries, emptied.filter(previousDataDays.contains).map(Self.dateValue),
                removes: "DailySummary"))
        writes.append(GraphWrite(statements.removeDays, emptied.map(Self.dateValue), removes: "Day"))
        return writes
    }

    private func workoutWrites(_ month: MonthContent) -> [GraphWrite] {
        let changedWorkouts = month.changed.map { day in (day, month.contents[day]?.workouts ?? []) }
        let kept = changedWorkouts.map { day, workouts in
            CypherValue.map([
                ("date", .string(day.description)), ("uids", .list(workouts.map { .string($0.uid) })),
            ])
        }
        let workouts = changedWorkouts.flatMap(\.1)
        return [
            // A workout already written to another day this sync (one that moved to an earlier
            // month) loses only its link to this one.
            GraphWrite(statements.unlinkMovedWorkouts, kept, removes: nil),
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

    private func anomalyWrites() -> [GraphWrite] {
        let anomalies = plan.anomalies
        return [
            GraphWrite(
                statements.anomalies,
                anomalies.map {
                    .map(
                        [
                            ("id", .integer($0.id)), ("sample_type", .string($0.sampleType)),
                            ("values", .map($0.properties)),
                        ]
                            + GraphSyncPass.metricTypeFields($0.sampleType))
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
    private func chainWrites() -> [GraphWrite] {
        let changedDays = tally.changedDays.keys.sorted()
        let before = plan.previousDataDays.sorted()
        let after = plan.previousDataDays.subtracting(changedDays).union(tally.changedDays.filter(\.value).keys)
            .sorted()
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

    /// `FOLLOWED_BY` from each workout of a changed day of the month, or of the day before one,
    /// to the first sleep that starts after it ends, that day or the next (the month's contents
    /// hold the day after it; `changedAfter`: that day is changed, so the month's last day links).
    private func sleepLinkWrites(_ month: MonthContent, changedAfter: Bool) -> [GraphWrite] {
        let changed = Set(month.changed)
        let days = Self.days(month.days).filter { day in
            changed.contains(day) || changed.contains(day.adding(1)) || (day == month.days.upperBound && changedAfter)
        }
        let links = days.flatMap { day in
            (month.contents[day]?.workouts ?? []).map { workout in
                // A day's sleep starts where its first asleep sample does (it has one iff it has sleep).
                let sleep = [day, day.adding(1)].lazy.compactMap { candidate -> (day: LocalDay, start: Double)? in
                    guard let start = month.contents[candidate]?.sleepStart, start >= workout.end else { return nil }
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

    private var syncWrite: GraphWrite {
        let next = plan.next
        let row = CypherValue.map([
            ("id", .integer(Int64(plan.syncNumber))),
            (
                "values",
                .map([
                    ("at", .string(UTCText.iso8601(seconds: next.syncedAt.timeIntervalSince1970.rounded(.down)))),
                    ("capture", .integer(next.captureId)), ("days_written", .integer(Int64(tally.daysWritten))),
                    ("days_removed", .integer(Int64(tally.daysRemoved))),
                    ("anomalies", .integer(Int64(plan.anomalies.count))), ("time_zone", .string(next.timeZone)),
                ])
            ),
        ])
        return GraphWrite(statements.sync, [row], merges: ["Sync"])
    }
}

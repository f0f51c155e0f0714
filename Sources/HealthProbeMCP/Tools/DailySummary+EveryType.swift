import HealthProbeArchive
import HealthProbeGraph
import MCP

extension AssistantAnswers {
    /// A day's figures as the graph sync has them, with what the archive cannot vouch for.
    struct DayFigures: Encodable {
        var day: String
        /// `total_steps`, `avg_heart_rate`, `sleep_hours`, `workout_count`, … (only those the day has).
        var figures: [String: PlainValue]
        var sleep: [String: PlainValue]?
        var workouts: [[String: PlainValue]]
        /// Figures left out because they would be one record's value (values not revealed).
        var withheld: [String]?
        /// Open anomalies whose days include this one.
        var anomalies: [Int64]
    }

    struct Figures: Encodable {
        var timeZone: String
        var days: [DayFigures]
        var note: String
    }

    /// Without a type: each day's figures, one definition with the graph sync's.
    func dayFigures(_ arguments: [String: Value]) throws -> Figures {
        // Every day's workouts, night and readings are read too: three months keep an answer under
        // a second.
        let query = try dayQuery(arguments, longest: Self.longestOfEveryType)
        let (zoneName, zone) = (query.zoneName, query.zone)
        let range = DayRange(first: query.days.lowerBound, last: query.days.upperBound)
        let open = try openAnomalyDays(of: nil, zone: zone)
        let days = try DaySummaries.read(store, from: LocalDay(range.first), to: LocalDay(range.last), timeZone: zone)
        let summed = Set(SummaryMetric.all.filter(\.isSummedFigure).map(\.sampleType))
        let partWithheld = try daysWithAPartWithheld(types: summed.sorted(), range: range, zone: zone)
        return Figures(
            timeZone: zoneName,
            days: days.map { content in
                let (figures, withheld) = shown(content, partWithheld: partWithheld)
                return DayFigures(
                    day: content.day.description, figures: figures,
                    sleep: withheld.contains("sleep_hours") ? nil : content.sleepSession.map(Self.plainObject),
                    workouts: content.workouts.map {
                        Self.plainObject($0.properties.filter { revealValues || Self.workoutTimes.contains($0.0) })
                    }, withheld: withheld.isEmpty ? nil : withheld,
                    anomalies: open.filter { $0.days.contains(content.day.number) }.map(\.id))
            },
            note: """
                Figures as the Health app shows them, the day figures daily_summary gives of one type: sources \
                that record the same time are not added up (each moment from the source highest in the type's \
                order), exact copies count once, sleep_hours is time asleep in the night that ends on the day; \
                a day's count, lowest, highest and last reading are read from its samples, copies once. \(
                    revealValues
                    ? ""
                    : "Without revealed values, a figure of fewer than \(Day.minimumSamples) samples, a day's lowest, highest or last reading, a workout's distance and energy, and a summed figure whose Health-app figure withholds a source's part are left out and named in `withheld` (workouts keep their times); days are the user's own. "
                )A day listed with anomalies may lack data the archive once held.
                """)
    }

    /// The longest period of every type's figures at once.
    static let longestOfEveryType = 93

    /// The longest range whose days without records are listed: a year (each day is counted).
    static let longestListOfEmptyDays = 366

    /// What a workout shows without revealed values: what it was and when.
    static let workoutTimes: Set<String> = [
        "activity_type", "raw_type", "source_name", "device", "start_date", "end_date", "duration_min",
    ]

    /// A day's figures as an answer may give them: all of them when values were revealed; else
    /// none that is one record's value — a figure of fewer than ``Day/minimumSamples`` samples, a
    /// lowest, highest or last reading — and the names of those left out.
    /// A summed figure (steps, energy, sleep) of a day whose Health-app figure withholds a
    /// source's part (`partWithheld`) is left out too.
    func shown(_ content: DayContent, partWithheld: Set<DayType> = []) -> (
        figures: [String: PlainValue], withheld: [String]
    ) {
        let figures = Self.plainObject(content.summary)
        guard !revealValues else { return (figures, []) }
        var withheld: [String] = []
        let kept = figures.filter { property, _ in
            let samples = content.samples(behind: property)
            let metric = SummaryMetric.all.first { $0.property == property }
            let subtracted =
                metric.map {
                    $0.isSummedFigure && partWithheld.contains(DayType(day: content.day.number, type: $0.sampleType))
                } ?? false
            let oneRecord =
                subtracted || DayContent.isOneReading(property)
                || (samples.map { $0 < Day.minimumSamples } ?? false)
            if oneRecord { withheld.append(property) }
            return !oneRecord
        }
        return (kept, withheld.sorted())
    }
}

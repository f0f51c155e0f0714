import Foundation
import HealthProbeArchive
import MCP

extension AssistantAnswers {
    /// One day of one type, flat, with what is zero or empty left out: a year is 366 of them,
    /// and every value is a node the SDK decodes again on its way out.
    struct Summary: Encodable {
        var type: String
        var name: String
        var unit: String?
        var timeZone: String
        var days: [Day]
        var daysWithoutRecords: [String]
        var note: String
    }

    /// A day of one type as the Health app shows it (docs/DESIGN.md §8a): the figure, each
    /// source's part and what was left out as overlap, the losses and open anomalies of the day.
    struct Day: Encodable {
        var figure: DayFigure
        /// Records that vanished from this day (proven losses), as far as the archive saw.
        var vanished: Int
        /// Open anomalies of this type whose days include this one.
        var anomalies: [Int64]
        var revealValues: Bool

        /// Figures drawn from fewer samples than this are withheld unless values were revealed: a
        /// figure of one or two samples is their value, and no answer gives a single record's
        /// value without `--reveal-values`.
        static let minimumSamples = 3

        private enum CodingKeys: String, CodingKey {
            case day, kind, count, total, hoursAsleep, hoursInBed, mean, minimum, maximum, withheld, copiesLeftOut
            case sources, vanished, anomalies
        }

        private enum PartKeys: String, CodingKey {
            case source, tier, counted, leftOut, samples
        }

        /// The day's figure is shown when it is drawn from enough samples and no part of it is
        /// withheld: else the figure minus the parts shown would be the part withheld.
        var shows: Bool { revealValues || (figure.samples >= Self.minimumSamples && !withholdsAPart) }

        var withholdsAPart: Bool { Self.withholdsAPart(figure, revealValues: revealValues) }

        static func showsPart(_ part: DayFigure.SourcePart, revealValues: Bool) -> Bool {
            revealValues || part.samples >= minimumSamples
        }

        /// Whether a source's part of a cumulative or sleep figure is withheld (a discrete
        /// figure's parts are counts only).
        static func withholdsAPart(_ figure: DayFigure, revealValues: Bool) -> Bool {
            figure.kind != .discrete && figure.sources.contains { !showsPart($0, revealValues: revealValues) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(UTCText.day(figure.day), forKey: .day)
            try container.encode(figure.kind.rawValue, forKey: .kind)
            try container.encode(figure.samples, forKey: .count)
            if shows {
                switch figure.kind {
                case .cumulative: try container.encode(figure.value, forKey: .total)
                case .sleep:
                    try container.encode(figure.value, forKey: .hoursAsleep)
                    try container.encodeIfPresent(figure.inBed, forKey: .hoursInBed)
                case .discrete:
                    try container.encode(figure.value, forKey: .mean)
                    if revealValues {
                        try container.encodeIfPresent(figure.minimum, forKey: .minimum)
                        try container.encodeIfPresent(figure.maximum, forKey: .maximum)
                    }
                }
            } else {
                try container.encode(true, forKey: .withheld)
            }
            if figure.copies > 0 { try container.encode(figure.copies, forKey: .copiesLeftOut) }
            var parts = container.nestedUnkeyedContainer(forKey: .sources)
            for part in figure.sources {
                var entry = parts.nestedContainer(keyedBy: PartKeys.self)
                try entry.encode(part.source, forKey: .source)
                try entry.encode(part.tier.words, forKey: .tier)
                try entry.encode(part.samples, forKey: .samples)
                guard figure.kind != .discrete, Self.showsPart(part, revealValues: revealValues) else { continue }
                try entry.encode(part.counted, forKey: .counted)
                if part.overlapped > 0 { try entry.encode(part.overlapped, forKey: .leftOut) }
            }
            if vanished > 0 { try container.encode(vanished, forKey: .vanished) }
            if !anomalies.isEmpty { try container.encode(anomalies, forKey: .anomalies) }
        }
    }

    func dailySummary(_ arguments: [String: Value]) throws -> Summary {
        let query = try dayQuery(arguments)
        let (type, zoneName, zone) = (query.types[0], query.zoneName, query.zone)
        let range = DayRange(first: query.days.lowerBound, last: query.days.upperBound)
        let figures = try query.figures(in: store)
        let vanished = try store.fetchVanishedPerDay(type: type, range: range, zone: zone)
        let touching = try openAnomalyDays(of: type, zone: zone)
        let held = Set(figures.map(\.day))
        return Summary(
            type: type, name: HealthKitCatalog.displayName(of: type), unit: figures.first?.unit,
            timeZone: zoneName,
            days: figures.map { figure in
                Day(
                    figure: figure, vanished: vanished[figure.day] ?? 0,
                    anomalies: touching.filter { $0.days.contains(figure.day) }.map(\.id), revealValues: revealValues)
            },
            daysWithoutRecords: (range.first...range.last).filter { !held.contains($0) }.map(UTCText.day),
            note: """
                Figures as the Health app shows them: sources that record the same time are not added up — each \
                moment is taken from the source highest in the type's order (entered by hand, Apple Watch, iPhone, \
                then other apps, the one added last first; an export does not carry the user's own order, so this \
                default is assumed unless set with `healthprobe settings --source-order`); `sources` shows each \
                one's part and what was left out. Exact copies count once. Sleep is time asleep within the local \
                day. A figure of fewer than \(Day.minimumSamples) samples is withheld unless values were revealed, and \
                so is a day's figure when one of its parts is (the figure less the parts shown would be that part). \
                A day with vanished records lacks data the archive once held.
                """)
    }

    /// The zone of days whose values an answer gives: any when values were revealed; else only
    /// the user's own (`settings --time-zone`, else this computer's). A day of another zone
    /// overlaps two of the user's days, and a figure of one less a figure of the other would be
    /// the few records between their edges (docs/DESIGN.md §9, what an assistant may learn).
    func valueDayZone(_ arguments: [String: Value]) throws -> (name: String, zone: TimeZone) {
        let asked = try timeZone(arguments)
        guard !revealValues else { return asked }
        let own = try store.dayZone()
        guard asked.zone.identifier == own.identifier else {
            throw AssistantProblem(
                message: "without revealed values, figures are given for the user's own days, in \(own.identifier): "
                    + "a day in \(asked.name) overlaps two of them, and the difference could be one record's value; "
                    + "ask without time_zone")
        }
        return asked
    }

    /// The (day, type) pairs whose Health-app figure withholds a source's part: the figure
    /// without a type must not give that type's day either, or it less the parts shown would
    /// be the part withheld.
    func daysWithAPartWithheld(types: [String], range: DayRange, zone: TimeZone) throws -> Set<DayType> {
        guard !revealValues else { return [] }
        let figures = try store.dayFigures(types: types, days: range.first...range.last, zone: zone)
        return Set(
            figures.filter {
                $0.samples < Day.minimumSamples || Day.withholdsAPart($0, revealValues: false)
            }.map { DayType(day: $0.day, type: $0.type) })
    }

    struct DayType: Hashable {
        var day: Int64
        var type: String
    }
}

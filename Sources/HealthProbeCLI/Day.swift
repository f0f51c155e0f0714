import ArgumentParser
import Foundation
import HealthProbeArchive
import HealthProbeKit

extension HealthProbeCommand {
    struct Day: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a day's figures as the Health app combines sources, with each source's part.",
            usage: """
                healthprobe day <date> [--to <date>] [--type <type>] [<options>]
                """,
            discussion: """
                Health does not add similar data from several sources: each moment is taken from the source \
                highest in the type's order (entered by hand, Apple Watch, iPhone, then other apps, the one \
                added last first; `healthprobe settings --source-order` changes it). Each source's part is \
                shown, and what was left out because a better-placed source covered the same time.
                """)

        @Argument(help: "The day, YYYY-MM-DD (local, in --time-zone).")
        var date: String

        @Option(help: "The last day of a period starting at DATE (at most ten years).")
        var to: String?

        @Option(name: .customLong("type"), help: "One type (StepCount, steps, sleep…); else every type that day.")
        var type: String?

        @Option(
            name: .customLong("time-zone"),
            help: "Local days in this IANA zone (default: `settings --time-zone`, else this computer's).")
        var timeZone: String?

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            guard let first = DayRange.day(date) else {
                throw CommandFailure.usage("cannot read the day '\(date)'; write 2000-01-31")
            }
            let last =
                try to.map { text in
                    guard let day = DayRange.day(text) else {
                        throw CommandFailure.usage("cannot read the day '\(text)'; write 2000-01-31")
                    }
                    return day
                } ?? first
            let store = try archive.openForReading()
            let query: DayQuery
            do {
                query = try DayQuery(store, from: first, to: last, type: type, zoneName: timeZone)
            } catch let problem as DayQuery.Problem {
                throw CommandFailure.usage(Self.words(problem))
            }
            // Written as read, a few weeks at a time: ten years of every type is never held whole.
            if output.json {
                var answer = try ReportJSON.StreamedObject(
                    DayFiguresAnswer(zoneName: query.zoneName, figures: []), arrayKey: "figures",
                    write: FileHandle.standardOutput.write)
                try query.figures(in: store) { try answer.append($0.map(DayFiguresAnswer.Figure.init)) }
                answer.finish()
                return Output.line()
            }
            var text = DayFigureText.Lines(zoneName: query.zoneName)
            try query.figures(in: store) { Output.lines(text.lines($0)) }
            if !text.wroteAny { Output.line(DayFigureText.nothing(on: query.days, zoneName: query.zoneName)) }
        }

        /// A question that cannot be asked, in the command line's words.
        static func words(_ problem: DayQuery.Problem) -> String {
            switch problem {
            case .backwards: "--to is before the day"
            case .tooLong(let longest): "at most ten years (\(Output.grouped(longest)) days) at once"
            case .unknownZone(let name): "unknown time zone '\(name)'; use an IANA name such as Europe/Paris"
            case .unknownType(let name, let nearest):
                ExportArguments.Problem.unknownType(name, closeMatches: nearest).localizedDescription
            }
        }
    }
}

/// `day --json`: the zone and each day's figures, the day first.
struct DayFiguresAnswer: Encodable {
    struct Figure: Encodable {
        var date: String
        var type: String
        var kind: String
        var unit: String?
        var value: Double
        var minimum: Double?
        var maximum: Double?
        var inBed: Double?
        var samples: Int
        var copies: Int
        var sources: [Part]
    }

    struct Part: Encodable {
        var source: String
        var place: Int
        var tier: String
        var counted: Double
        var overlapped: Double
        var samples: Int
    }

    var timeZone: String
    var figures: [Figure]

    init(zoneName: String, figures: [DayFigure]) {
        timeZone = zoneName
        self.figures = figures.map(Figure.init)
    }
}

extension DayFiguresAnswer.Figure {
    init(_ figure: DayFigure) {
        self.init(
            date: UTCText.day(figure.day), type: figure.type, kind: figure.kind.rawValue, unit: figure.unit,
            value: figure.value, minimum: figure.minimum, maximum: figure.maximum, inBed: figure.inBed,
            samples: figure.samples, copies: figure.copies,
            sources: figure.sources.map {
                DayFiguresAnswer.Part(
                    source: $0.source, place: $0.place, tier: $0.tier.rawValue, counted: $0.counted,
                    overlapped: $0.overlapped, samples: $0.samples)
            })
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    /// A day's figures as the Health app combines sources, each with its sources' parts: the
    /// same figures `healthprobe day` and the assistant give (docs/DESIGN.md §8a).
    struct DayView: Sendable {
        struct Part: Sendable {
            var place: Int
            var source: String
            var tier: String
            var counted: String?
            var leftOut: String?
            var samples: String
        }

        struct Figure: Sendable {
            var name: String
            var type: String
            var headline: String
            /// Why a night reads as it does, when people would doubt it.
            var remark: String?
            var copies: String?
            var parts: [Part]
        }

        var date: String
        var zone: String
        var previousHref: String
        var nextHref: String
        var figures: [Figure]
    }

    /// `/day?date=2000-01-31[&type=T]`: the day's figures in the archive's day zone.
    func day(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let type = query["type"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        guard let dateText = query["date"].map(String.init), let day = DayRange.day(dateText) else {
            return renderer.error(
                .badRequest, title: "Choose a day",
                message: "Show a day's figures by its date, as /day?date=2000-01-31.", link: ("/", "Dashboard"))
        }
        let format = try await dayFormat()
        guard
            let loaded = try await withArchive({ store -> (DayQuery, [DayFigure])? in
                do {
                    let query = try DayQuery(store, from: day, to: day, type: type, zoneName: nil)
                    return (query, try query.figures(in: store))
                } catch is DayQuery.Problem {
                    return nil
                }
            })
        else { return await noArchive() }
        guard let (query, figures) = loaded else {
            return renderer.error(
                .badRequest, title: "No such type",
                message: "The archive holds no type of that name; the dashboard lists the types it holds.",
                link: ("/", "Dashboard"))
        }
        func link(_ other: Int64) -> String {
            "/day?date=\(UTCText.day(other))" + (type.map { "&type=" + ChartPeriodView.queryValue($0) } ?? "")
        }
        let view = DayView(
            date: UTCText.day(day), zone: query.zoneName, previousHref: link(day - 1), nextHref: link(day + 1),
            figures: figures.map { Self.figureView($0, format: format) })
        return renderer.html("day", title: "Day \(UTCText.day(day))", tab: nil, body: view)
    }

    private static func figureView(_ figure: DayFigure, format: ScreenFormat) -> DayView.Figure {
        DayView.Figure(
            name: HealthKitCatalog.displayName(of: figure.type), type: figure.type,
            headline: DayFigureWords.headline(figure), remark: DayFigureWords.remark(figure),
            copies: figure.copies > 0
                ? "\(format.count(figure.copies)) exact \(figure.copies == 1 ? "copy" : "copies") left out" : nil,
            parts: figure.sources.map { part in
                let shows = figure.kind != .discrete
                return DayView.Part(
                    place: part.place, source: part.source, tier: part.tier.words,
                    counted: shows ? DayFigureWords.part(part.counted, of: figure) : nil,
                    leftOut: shows && DayFigureWords.leftOut(part)
                        ? DayFigureWords.part(part.overlapped, of: figure) : nil,
                    samples: format.count(part.samples))
            })
    }
}

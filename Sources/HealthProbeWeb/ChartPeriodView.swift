import Foundation
import HealthProbeArchive
import HealthProbeKit

/// The records chart's period: the dates shown (a form to change them), shortcuts to the latest
/// 30 days, 90 days, year or everything, and the periods of the same length either side.
struct ChartPeriodView: Sendable {
    var from: String
    var to: String
    var shortcuts: [ChipView]
    var previousHref: String?
    var nextHref: String?

    init?(_ series: DailyRecordSeries) {
        guard let range = series.range, let span = series.dataSpan else { return nil }
        from = range.firstDate
        to = range.lastDate
        let type = series.type
        shortcuts =
            [(30, "30 days"), (90, "90 days"), (365, "A year")].map { count, label in
                let shortcut = DayRange.ending(at: span.last, count: count)
                return ChipView(href: Self.href(type: type, shortcut), label: label, selected: shortcut == range)
            } + [ChipView(href: Self.href(type: type, span), label: "All", selected: span == range)]
        let length = Int64(range.count)
        previousHref = range.first > span.first ? Self.href(type: type, range.shifted(by: -length)) : nil
        nextHref = range.last < span.last ? Self.href(type: type, range.shifted(by: length)) : nil
    }

    /// The dashboard showing `type` over `range`.
    static func href(type: String, _ range: DayRange) -> String {
        "/?type=\(queryValue(type))&from=\(range.firstDate)&to=\(range.lastDate)#records-title"
    }

    /// A sample type as a link's query value (identifiers are letters, but a link is built from
    /// what the archive holds).
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}

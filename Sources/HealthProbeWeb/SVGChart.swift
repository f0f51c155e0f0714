import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// Charts as SVG drawn on the server by pure functions with fixed rounding: each has a title and
/// a description for screen readers, a tooltip on every mark, a legend, and the same numbers in a
/// table one click away. The SVG holds only marks and lines; its labels are HTML just above and
/// below it (the scale's top at the top-left, the loss scale and the dates under it), so that they
/// keep their size when a phone shrinks the drawing.
enum SVGChart {
    private static let width = 720.0
    private static let plotTop = 4.0
    private static let plotHeight = 160.0
    private static let left = 2.0
    private static let right = 2.0

    /// Records of one type per day (or per mark of several days over a long period): the bar is
    /// what the last capture holds — on time, surplus copies and what arrived late stacked as
    /// segments of their own — and what vanished is drawn below the baseline, so a day that lost
    /// everything still shows, on the same scale (a record is as tall below the line as above
    /// it). Every mark carries `data-day`, `data-kind` (`held`, `duplicate`, `backfilled`,
    /// `vanished`), `data-count` and `data-days` for tools.
    static func records(_ series: DailyRecordSeries, typeName: String, format: ScreenFormat) -> String {
        guard let range = series.range, !series.days.isEmpty else { return "" }
        let id = series.anomalyID.map { "anomaly-\($0)-chart" } ?? "records-chart"
        let peakLoss = series.days.map(\.vanished).max() ?? 0
        let peak = max(1, series.days.map(\.records).max() ?? 1, peakLoss)
        let perRecord = plotHeight / Double(peak)
        let lossHeight = peakLoss > 0 ? Self.height(peakLoss, perRecord) + 1 : 0
        let total = Self.sum(series.days, \.records)
        let vanished = Self.sum(series.days, \.vanished)
        let backfilled = Self.sum(series.days, \.backfilled)
        let duplicate = Self.sum(series.days, \.duplicate)
        let slot = (width - left - right) / Double(series.days.count)
        let baseline = plotTop + plotHeight
        var marks = ""
        for (index, day) in series.days.enumerated() {
            let x = left + Double(index) * slot + slot * 0.1
            let barWidth = max(1, slot * 0.8)
            let late = min(day.records, day.backfilled)
            let surplus = min(day.records - late, day.duplicate)
            let onTime = day.records - late - surplus
            var tip = "\(markName(day.day, series.daysPerMark, in: range)): \(format.count(day.records)) records"
            if surplus > 0 { tip += ", \(format.count(surplus)) extra \(surplus == 1 ? "copy" : "copies")" }
            if late > 0 { tip += ", \(format.count(late)) arrived late" }
            if day.vanished > 0 { tip += ", \(format.count(day.vanished)) vanished" }
            let data = { (kind: String, count: Int) in
                " data-day=\"\(day.date)\" data-kind=\"\(kind)\" data-count=\"\(count)\" data-days=\"\(series.daysPerMark)\""
            }
            marks += "<g><title>\(escape(tip))</title>"
            // On one scale, with a pixel at least for any count: one lost record beside a
            // thousand held ones still shows (its tooltip and the table give the number).
            var top = baseline
            for (kind, className, count) in [
                ("held", "bar", onTime), ("duplicate", "dup", surplus), ("backfilled", "late", late),
            ] where count > 0 {
                let height = Self.height(count, perRecord)
                top -= height
                marks += rect(className, x, top, barWidth, height, data(kind, count))
            }
            if day.vanished > 0 {
                marks += rect(
                    "lost", x, baseline + 1, barWidth, Self.height(day.vanished, perRecord),
                    data("vanished", day.vanished))
            }
            if day.records == 0 && day.vanished == 0 {
                marks += rect("axis", x, baseline - 1, barWidth, 1)
            }
            marks += "</g>"
        }
        let unit = series.daysPerMark == 1 ? "day" : "\(series.daysPerMark) days"
        let each = series.daysPerMark == 1 ? "a day" : "every \(series.daysPerMark) days"
        var description =
            "\(typeName) from \(range.firstDate) to \(range.lastDate) (\(series.timeZone)), one mark \(each): \(format.count(total)) "
            + (total == 1 ? "record held" : "records held")
        if duplicate > 0 { description += ", \(format.count(duplicate)) of them extra copies" }
        if backfilled > 0 { description += ", \(format.count(backfilled)) arrived late" }
        description += vanished > 0 ? "; \(format.count(vanished)) vanished without a deletion." : "; none vanished."
        let height = baseline + lossHeight + 2
        var svg = header(id: id, height: height, title: "Records of \(typeName) per \(unit)", description: description)
        svg += axis(baseline: baseline)
        if peakLoss > 0 {
            svg += line(x1: left, y1: baseline, x2: left, y2: baseline + lossHeight)
        }
        svg += marks + "</svg>"
        var below = ""
        if peakLoss > 0 { below += "<p class=\"axis-label\">−\(escape(format.count(peakLoss))) vanished</p>" }
        below += dateLabels(range)
        var legend = "<p class=\"legend\"><span class=\"bar\">held</span>"
        if duplicate > 0 { legend += "<span class=\"dup\">extra copies</span>" }
        legend +=
            "<span class=\"late\">arrived late (backfilled)</span><span class=\"lost\">vanished (below the line)</span></p>"
        let rows = series.days.filter { $0.records + $0.vanished + $0.backfilled + $0.duplicate > 0 }.map {
            "<tr><th scope=\"row\">\($0.date)</th><td data-label=\"Records\">\(format.count($0.records))</td><td data-label=\"Extra copies\">\(format.count($0.duplicate))</td><td data-label=\"Arrived late\">\(format.count($0.backfilled))</td><td data-label=\"Vanished\">\(format.count($0.vanished))</td></tr>"
        }
        let table =
            "<details><summary>The numbers</summary><div class=\"scroll\"><table><thead><tr><th scope=\"col\">\(series.daysPerMark == 1 ? "Day" : "\(series.daysPerMark) days from") (\(escape(series.timeZone)))</th><th scope=\"col\">Records</th><th scope=\"col\">Extra copies</th><th scope=\"col\">Arrived late</th><th scope=\"col\">Vanished</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table></div></details>"
        return "<figure class=\"chart-figure\">"
            + scaleLabel(peak, peak == 1 ? "record a \(unit)" : "records a \(unit)", format: format) + svg + below
            + legend + table + "</figure>"
    }

    /// Anomalies by the days they are about, stacked by severity: an anomaly counts once in each
    /// mark it touches.
    static func timeline(_ timeline: AnomalyTimeline, format: ScreenFormat) -> String {
        guard let range = timeline.range, !timeline.days.isEmpty else { return "" }
        let id = "timeline-chart"
        let peak = max(1, timeline.days.map(\.total).max() ?? 1)
        let slot = (width - left - right) / Double(timeline.days.count)
        let baseline = plotTop + plotHeight
        var marks = ""
        for (index, day) in timeline.days.enumerated() where day.total > 0 {
            let x = left + Double(index) * slot + slot * 0.1
            var top = baseline
            let parts = Severity.allCases.reversed().compactMap { severity in
                day.counts[severity].map { "\($0) \(severity.rawValue)" }
            }
            let name = markName(day.day, timeline.daysPerMark, in: range)
            marks += "<g><title>\(escape("\(name): \(parts.joined(separator: ", "))"))</title>"
            for severity in Severity.allCases {
                guard let count = day.counts[severity], count > 0 else { continue }
                let height = Double(count) / Double(peak) * plotHeight
                top -= height
                marks += rect(
                    "sev-\(severity.rawValue)", x, top, max(1, slot * 0.8), height,
                    " data-day=\"\(day.date)\" data-severity=\"\(severity.rawValue)\" data-count=\"\(count)\"")
            }
            marks += "</g>"
        }
        let unit = timeline.daysPerMark == 1 ? "day" : "\(timeline.daysPerMark) days"
        let totals = Severity.allCases.reversed().map { severity in
            "\(timeline.days.filter { ($0.counts[severity] ?? 0) > 0 }.count) \(unit == "day" ? "days" : "marks") with \(severity.rawValue)"
        }
        let description =
            "Anomalies by the days their records are from, \(range.firstDate) to \(range.lastDate) (\(timeline.timeZone)), one mark a \(unit): \(totals.joined(separator: ", "))."
        var svg = header(
            id: id, height: baseline + 2, title: "Anomalies by the days they affect", description: description)
        svg += axis(baseline: baseline) + marks + "</svg>"
        let legend =
            "<p class=\"legend\"><span class=\"sev-critical\">critical</span><span class=\"sev-warning\">warning</span><span class=\"sev-info\">info</span></p>"
        let rows = timeline.days.filter { $0.total > 0 }.map { day in
            "<tr><th scope=\"row\">\(day.date)</th>"
                + Severity.allCases.reversed().map {
                    "<td data-label=\"\($0.rawValue.capitalized)\">\(day.counts[$0] ?? 0)</td>"
                }.joined() + "</tr>"
        }
        let table =
            "<details><summary>The numbers</summary><div class=\"scroll\"><table><thead><tr><th scope=\"col\">\(timeline.daysPerMark == 1 ? "Day" : "\(timeline.daysPerMark) days from") (\(escape(timeline.timeZone)))</th><th scope=\"col\">Critical</th><th scope=\"col\">Warning</th><th scope=\"col\">Info</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table></div></details>"
        return "<figure class=\"chart-figure\">" + scaleLabel(peak, peak == 1 ? "anomaly" : "anomalies", format: format)
            + svg
            + dateLabels(range) + legend + table + "</figure>"
    }

    /// "2000-01-01", or "2000-01-01 – 2000-01-14" for a mark of several days.
    private static func markName(_ day: Int64, _ daysPerMark: Int, in range: DayRange) -> String {
        guard daysPerMark > 1 else { return UTCText.day(day) }
        return "\(UTCText.day(day)) – \(UTCText.day(min(range.last, day + Int64(daysPerMark) - 1)))"
    }

    private static func sum(_ days: [DailyRecordSeries.Day], _ count: KeyPath<DailyRecordSeries.Day, Int>) -> Int {
        days.reduce(0) { $0 + $1[keyPath: count] }
    }

    private static func height(_ count: Int, _ perRecord: Double) -> Double {
        count > 0 ? max(1, Double(count) * perRecord) : 0
    }

    private static func header(id: String, height: Double, title: String, description: String) -> String {
        "<svg class=\"chart\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" viewBox=\"0 0 \(number(width)) \(number(height))\" preserveAspectRatio=\"none\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<title id=\"\(id)-title\">\(escape(title))</title><desc id=\"\(id)-desc\">\(escape(description))</desc>"
    }

    /// The top of the scale, just above the drawing's top-left corner.
    private static func scaleLabel(_ peak: Int, _ what: String, format: ScreenFormat) -> String {
        "<p class=\"axis-label\" aria-hidden=\"true\">\(escape(format.count(peak))) \(escape(what))</p>"
    }

    private static func dateLabels(_ range: DayRange) -> String {
        "<p class=\"axis-dates\" aria-hidden=\"true\"><span>\(range.firstDate)</span><span>\(range.lastDate)</span></p>"
    }

    private static func axis(baseline: Double) -> String {
        line(x1: left, y1: baseline, x2: width - right, y2: baseline)
            + line(x1: left, y1: plotTop, x2: left, y2: baseline)
    }

    private static func line(x1: Double, y1: Double, x2: Double, y2: Double) -> String {
        "<line class=\"axis\" x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke-width=\"1\" vector-effect=\"non-scaling-stroke\"/>"
    }

    private static func rect(
        _ className: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, _ data: String = ""
    ) -> String {
        "<rect class=\"\(className)\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\"\(data)/>"
    }

    /// One decimal, always the same text for the same number.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        return fraction == 0 ? "\(Int(tenths) / 10)" : "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }

    /// Text for SVG content and attributes (Mustache escapes the pages; the charts are built here).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

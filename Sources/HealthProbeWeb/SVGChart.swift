import Foundation
import HealthProbeKit
import HealthProbeScreens

/// Charts as SVG text, drawn on the server by pure functions with fixed rounding: each has a
/// title and a description for screen readers, a tooltip on every mark, a legend, and the same
/// numbers in a table one click away.
enum SVGChart {
    private static let width = 720.0
    private static let plotTop = 16.0
    private static let plotHeight = 160.0
    private static let left = 56.0
    private static let right = 8.0
    private static let labelRow = 20.0

    /// Records per day of one type: the bar is what the last capture holds, with what arrived
    /// late as its own segment on top; what vanished is drawn below the baseline, so a day that
    /// lost everything still shows — on the same scale as what is held (a record is as tall
    /// below the line as above it), the loss axis labelled. Every mark carries `data-day`,
    /// `data-kind` (`held`, `backfilled`, `vanished`) and `data-count` for tools.
    static func records(_ series: DailyRecordSeries, typeName: String, format: ScreenFormat) -> String {
        guard let first = series.days.first, let last = series.days.last else { return "" }
        let id = "records-chart"
        let peakLoss = series.days.map(\.vanished).max() ?? 0
        let peak = max(1, series.days.map(\.records).max() ?? 1, peakLoss)
        let perRecord = plotHeight / Double(peak)
        let lossHeight = peakLoss > 0 ? Self.height(peakLoss, perRecord) + 1 : 0
        let vanished = series.days.reduce(0) { $0 + $1.vanished }
        let backfilled = series.days.reduce(0) { $0 + $1.backfilled }
        let total = series.days.reduce(0) { $0 + $1.records }
        let slot = (width - left - right) / Double(series.days.count)
        let baseline = plotTop + plotHeight
        var marks = ""
        for (index, day) in series.days.enumerated() {
            let x = left + Double(index) * slot + slot * 0.1
            let barWidth = max(1, slot * 0.8)
            var tip = "\(day.date): \(format.count(day.records)) records"
            if day.backfilled > 0 { tip += ", \(format.count(day.backfilled)) arrived late" }
            if day.vanished > 0 { tip += ", \(format.count(day.vanished)) vanished" }
            let lateCount = min(day.records, day.backfilled)
            // On one scale, with a pixel at least for any count: one lost record beside a
            // thousand held ones still shows (its tooltip and the table give the number).
            let onTime = Self.height(day.records - lateCount, perRecord)
            let late = Self.height(lateCount, perRecord)
            let data = { (kind: String, count: Int) in
                " data-day=\"\(day.date)\" data-kind=\"\(kind)\" data-count=\"\(count)\""
            }
            marks += "<g><title>\(escape(tip))</title>"
            if onTime > 0 {
                marks += rect("bar", x, baseline - onTime, barWidth, onTime, data("held", day.records - lateCount))
            }
            if late > 0 {
                marks += rect("late", x, baseline - onTime - late, barWidth, late, data("backfilled", lateCount))
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
        var description =
            "\(series.days.count) days from \(first.date) to \(last.date) (UTC): \(format.count(total)) \(typeName) records held"
        if backfilled > 0 { description += ", \(format.count(backfilled)) of them arrived late" }
        description += vanished > 0 ? "; \(format.count(vanished)) vanished without a deletion." : "; none vanished."
        let height = baseline + lossHeight + labelRow + 8
        var svg = header(id: id, height: height, title: "Records per day of \(typeName)", description: description)
        svg += axis(baseline: baseline, peak: format.count(peak))
        if peakLoss > 0 {
            svg +=
                "<line class=\"axis\" x1=\"\(number(left))\" y1=\"\(number(baseline))\" x2=\"\(number(left))\" y2=\"\(number(baseline + lossHeight))\" stroke-width=\"1\"/>"
        }
        // The loss axis is labelled where there is room beside the baseline's 0.
        if lossHeight >= 12 {
            svg +=
                "<text x=\"\(number(left - 4))\" y=\"\(number(baseline + lossHeight + 4))\" text-anchor=\"end\">−\(escape(format.count(peakLoss)))</text>"
        }
        svg += marks
        svg += dateLabels(first.date, last.date, y: baseline + lossHeight + labelRow)
        svg += "</svg>"
        let legend =
            "<p class=\"legend\"><span class=\"bar\">held</span><span class=\"late\">arrived late (backfilled)</span><span class=\"lost\">vanished (below the line)</span></p>"
        let rows = series.days.map {
            "<tr><td>\($0.date)</td><td>\(format.count($0.records))</td><td>\(format.count($0.backfilled))</td><td>\(format.count($0.vanished))</td></tr>"
        }
        let table =
            "<details><summary>The numbers</summary><table><thead><tr><th scope=\"col\">Day (UTC)</th><th scope=\"col\">Records</th><th scope=\"col\">Arrived late</th><th scope=\"col\">Vanished</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table></details>"
        return "<figure>" + svg + legend + table + "</figure>"
    }

    /// Anomalies found per day, stacked by severity.
    static func timeline(_ timeline: AnomalyTimeline, format: ScreenFormat) -> String {
        guard let first = timeline.days.first, let last = timeline.days.last else { return "" }
        let id = "timeline-chart"
        let peak = max(1, timeline.days.map(\.total).max() ?? 1)
        let slot = (width - left - right) / Double(timeline.days.count)
        let baseline = plotTop + plotHeight
        var marks = ""
        for (index, day) in timeline.days.enumerated() where day.total > 0 {
            let x = left + Double(index) * slot + slot * 0.1
            var top = baseline
            let parts = Severity.allCases.compactMap { severity in
                day.counts[severity].map { "\($0) \(severity.rawValue)" }
            }
            marks += "<g><title>\(escape("\(day.date): \(parts.joined(separator: ", "))"))</title>"
            for severity in Severity.allCases {
                guard let count = day.counts[severity], count > 0 else { continue }
                let height = Double(count) / Double(peak) * plotHeight
                top -= height
                marks += rect("sev-\(severity.rawValue)", x, top, max(1, slot * 0.8), height)
            }
            marks += "</g>"
        }
        let totals = Severity.allCases.reversed().map { severity in
            "\(timeline.days.reduce(0) { $0 + ($1.counts[severity] ?? 0) }) \(severity.rawValue)"
        }
        let description =
            "Anomalies found per day from \(first.date) to \(last.date) (UTC): \(totals.joined(separator: ", "))."
        let height = baseline + labelRow + 8
        var svg = header(id: id, height: height, title: "Anomalies over time", description: description)
        svg += axis(baseline: baseline, peak: format.count(peak))
        svg += marks
        svg += dateLabels(first.date, last.date, y: baseline + labelRow)
        svg += "</svg>"
        let legend =
            "<p class=\"legend\"><span class=\"sev-critical\">critical</span><span class=\"sev-warning\">warning</span><span class=\"sev-info\">info</span></p>"
        let rows = timeline.days.filter { $0.total > 0 }.map { day in
            "<tr><td>\(day.date)</td>"
                + Severity.allCases.reversed().map { "<td>\(day.counts[$0] ?? 0)</td>" }.joined() + "</tr>"
        }
        let table =
            "<details><summary>The numbers</summary><table><thead><tr><th scope=\"col\">Day (UTC)</th><th scope=\"col\">Critical</th><th scope=\"col\">Warning</th><th scope=\"col\">Info</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table></details>"
        return "<figure>" + svg + legend + table + "</figure>"
    }

    private static func height(_ count: Int, _ perRecord: Double) -> Double {
        count > 0 ? max(1, Double(count) * perRecord) : 0
    }

    private static func header(id: String, height: Double, title: String, description: String) -> String {
        "<svg class=\"chart\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" viewBox=\"0 0 \(number(width)) \(number(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<title id=\"\(id)-title\">\(escape(title))</title><desc id=\"\(id)-desc\">\(escape(description))</desc>"
    }

    private static func axis(baseline: Double, peak: String) -> String {
        "<line class=\"axis\" x1=\"\(number(left))\" y1=\"\(number(baseline))\" x2=\"\(number(width - right))\" y2=\"\(number(baseline))\" stroke-width=\"1\"/>"
            + "<line class=\"axis\" x1=\"\(number(left))\" y1=\"\(number(plotTop))\" x2=\"\(number(left))\" y2=\"\(number(baseline))\" stroke-width=\"1\"/>"
            + "<text x=\"\(number(left - 4))\" y=\"\(number(plotTop + 4))\" text-anchor=\"end\">\(escape(peak))</text>"
            + "<text x=\"\(number(left - 4))\" y=\"\(number(baseline + 4))\" text-anchor=\"end\">0</text>"
    }

    private static func dateLabels(_ first: String, _ last: String, y: Double) -> String {
        "<text x=\"\(number(left))\" y=\"\(number(y))\">\(first)</text>"
            + "<text x=\"\(number(width - right))\" y=\"\(number(y))\" text-anchor=\"end\">\(last)</text>"
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

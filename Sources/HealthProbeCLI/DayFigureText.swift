import Foundation
import HealthProbeKit

/// A day's figures in words: the figure, then each source's part in the type's order and what
/// was left out as overlap.
enum DayFigureText {
    static func render(_ figures: [DayFigure], zoneName: String, days: ClosedRange<Int64>) -> String {
        guard !figures.isEmpty else {
            let period =
                days.count == 1
                ? UTCText.day(days.lowerBound) : "\(UTCText.day(days.lowerBound)) – \(UTCText.day(days.upperBound))"
            return "No records on \(period) (\(zoneName))."
        }
        var lines: [String] = []
        var lastDay: Int64?
        for figure in figures {
            if figure.day != lastDay {
                if lastDay != nil { lines.append("") }
                lines.append("\(UTCText.day(figure.day)) (\(zoneName))")
                lastDay = figure.day
            }
            lines.append(headline(figure))
            for part in figure.sources { lines.append("  " + line(part, of: figure)) }
        }
        return lines.joined(separator: "\n")
    }

    static func headline(_ figure: DayFigure) -> String {
        let name = HealthKitCatalog.displayName(of: figure.type)
        let copies =
            figure.copies > 0
            ? "; \(Output.grouped(figure.copies)) exact \(figure.copies == 1 ? "copy" : "copies") left out" : ""
        switch figure.kind {
        case .cumulative:
            return "\(name): \(amount(figure.value, figure.unit))\(copies)"
        case .sleep:
            let inBed = figure.inBed ?? 0
            return "\(name): \(hours(figure.value)) asleep" + (inBed > 0 ? ", \(hours(inBed)) in bed" : "") + copies
        case .discrete:
            let range =
                figure.minimum == figure.maximum
                ? "" : ", \(number(figure.minimum ?? 0))–\(number(figure.maximum ?? 0))"
            let samples = "\(Output.grouped(figure.samples)) sample\(figure.samples == 1 ? "" : "s")"
            return "\(name): mean \(amount(figure.value, figure.unit))\(range) (\(samples))\(copies)"
        }
    }

    static func line(_ part: DayFigure.SourcePart, of figure: DayFigure) -> String {
        // A hand-entered source's name says so already.
        let who =
            part.tier == .enteredByHand
            ? "\(part.place). \(part.source)" : "\(part.place). \(part.source) (\(part.tier.words))"
        let samples = "\(Output.grouped(part.samples)) sample\(part.samples == 1 ? "" : "s")"
        switch figure.kind {
        case .discrete:
            return "\(who): \(samples)"
        case .cumulative, .sleep:
            let format = { (value: Double) in figure.kind == .sleep ? hours(value) : amount(value, figure.unit) }
            var text = "\(who): \(format(part.counted)) counted"
            if part.overlapped > 0.0005 {
                text += "; \(format(part.overlapped)) left out, covered by a better-placed source"
            }
            return text + " (\(samples))"
        }
    }

    static func amount(_ value: Double, _ unit: String?) -> String {
        let text = number(value)
        guard let unit else { return text }
        return unit == "count" ? text : "\(text) \(unit)"
    }

    /// Whole numbers grouped; others with up to two decimals.
    static func number(_ value: Double) -> String {
        if abs(value - value.rounded()) < 0.005 || abs(value) >= 1_000 { return Output.grouped(Int(value.rounded())) }
        return String(format: "%.2f", value)
    }

    static func hours(_ value: Double) -> String {
        let minutes = Int((value * 60).rounded())
        return "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min"
    }
}

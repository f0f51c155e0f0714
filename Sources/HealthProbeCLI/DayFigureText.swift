import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// A day's figures in words: the figure, then each source's part in the type's order and what
/// was left out as overlap.
enum DayFigureText {
    /// The lines of a period's figures handed over a few weeks at a time: a day's heading before
    /// its first figure, a blank line between days.
    struct Lines {
        let zoneName: String
        private var lastDay: Int64?

        init(zoneName: String) { self.zoneName = zoneName }

        var wroteAny: Bool { lastDay != nil }

        mutating func lines(_ figures: [DayFigure]) -> [String] {
            var lines: [String] = []
            for figure in figures {
                if figure.day != lastDay {
                    if lastDay != nil { lines.append("") }
                    lines.append("\(UTCText.day(figure.day)) (\(zoneName))")
                    lastDay = figure.day
                }
                lines.append(headline(figure))
                for part in figure.sources { lines.append("  " + line(part, of: figure)) }
                if let remark = DayFigureWords.remark(figure) { lines.append("  " + remark) }
            }
            return lines
        }
    }

    /// What is said of a period without records.
    static func nothing(on days: ClosedRange<Int64>, zoneName: String) -> String {
        let period =
            days.count == 1
            ? UTCText.day(days.lowerBound) : "\(UTCText.day(days.lowerBound)) – \(UTCText.day(days.upperBound))"
        return "No records on \(period) (\(zoneName))."
    }

    static func headline(_ figure: DayFigure) -> String {
        let name = HealthKitCatalog.displayName(of: figure.type)
        let copies =
            figure.copies > 0
            ? "; \(Output.grouped(figure.copies)) exact \(figure.copies == 1 ? "copy" : "copies") left out" : ""
        let samples = "\(Output.grouped(figure.samples)) sample\(figure.samples == 1 ? "" : "s")"
        let suffix = figure.kind == .discrete ? " (\(samples))" : ""
        return "\(name): \(DayFigureWords.headline(figure))\(suffix)\(copies)"
    }

    static func line(_ part: DayFigure.SourcePart, of figure: DayFigure) -> String {
        // A hand-entered source's name says so already.
        let who =
            part.tier == .enteredByHand
            ? "\(part.place). \(UntrustedText.bounded(part.source))"
            : "\(part.place). \(UntrustedText.bounded(part.source)) (\(part.tier.words))"
        let samples = "\(Output.grouped(part.samples)) sample\(part.samples == 1 ? "" : "s")"
        guard figure.kind != .discrete else { return "\(who): \(samples)" }
        var text = "\(who): \(DayFigureWords.part(part.counted, of: figure)) counted"
        if DayFigureWords.leftOut(part) {
            text += "; \(DayFigureWords.part(part.overlapped, of: figure)) left out, covered by a better-placed source"
        }
        return text + " (\(samples))"
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit

/// A day's figure in words, as the command line's `day` and the dashboard's day page say it.
public enum DayFigureWords {
    /// The figure: "23,264", "8,605 m", "6 h 30 min asleep, 8 h 10 min in bed", "mean 72 count/min (55 – 94)".
    public static func headline(_ figure: DayFigure) -> String {
        switch figure.kind {
        case .cumulative:
            return amount(figure.value, figure.unit)
        case .sleep:
            let inBed = figure.inBed ?? 0
            return "\(hours(figure.value)) asleep" + (inBed > 0 ? ", \(hours(inBed)) in bed" : "")
        case .discrete:
            let range =
                figure.minimum == figure.maximum
                ? "" : " (\(amount(figure.minimum ?? 0, figure.unit)) – \(amount(figure.maximum ?? 0, figure.unit)))"
            return "mean \(amount(figure.value, figure.unit))\(range)"
        }
    }

    /// A night longer than this asleep is said with what made it.
    public static let longNightHours = 14.0

    /// Why a night reads as it does, when people would doubt it: more than 14 hours asleep, or
    /// asleep longer than in bed — the source and the entry that made it; a hand entry is the
    /// user's own. Nil for any other figure.
    public static func remark(_ figure: DayFigure) -> String? {
        guard figure.kind == .sleep, let entry = figure.longestAsleep else { return nil }
        let source = UntrustedText.bounded(entry.source)
        // A hand-entered source's name says so already.
        let made =
            entry.tier == .enteredByHand
            ? "its longest entry, \(hours(entry.hours)), comes from \(source): your own entry, counted as entered"
            : "its longest entry, \(hours(entry.hours)), comes from \(source) (\(entry.tier.words))"
        if figure.value > longNightHours {
            let cause =
                entry.tier == .enteredByHand ? "" : "; a tracker left running, or two nights in one entry, reads so"
            return "Over \(Int(longNightHours)) hours asleep: " + made + cause + "."
        }
        if let inBed = figure.inBed, inBed > 0, figure.value - inBed > 1.0 / 60 {
            return "Asleep longer than in bed: in bed is only the time a source entered as in bed, and "
                + made + "."
        }
        return nil
    }

    /// What a source gave or had left out, in the figure's terms (hours for sleep).
    public static func part(_ value: Double, of figure: DayFigure) -> String {
        figure.kind == .sleep ? hours(value) : amount(value, figure.unit)
    }

    /// Whole numbers grouped, others with two decimals; the unit unless it is a count. A count
    /// (steps, flights climbed) is a whole number, as Health shows it: 133.47 flights are 133.
    public static func amount(_ value: Double, _ unit: String?) -> String {
        let text =
            abs(value - value.rounded()) < 0.005 || abs(value) >= 1_000 || unit == "count"
            ? EvidenceText.grouped(Int(value.rounded())) : String(format: "%.2f", value)
        guard let unit, unit != "count" else { return text }
        return "\(text) \(unit)"
    }

    /// "6 h 05 min".
    public static func hours(_ value: Double) -> String {
        let minutes = Int((value * 60).rounded())
        return "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min"
    }

    /// Whether what was left out is worth saying (more than rounding).
    public static func leftOut(_ part: DayFigure.SourcePart) -> Bool { part.overlapped > 0.0005 }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// An ECG recording drawn on the server: its voltages over time on the paper's grid (a light line
/// every 0.2 s, a darker one every second), at most two points a column — each column's lowest
/// and highest voltage — so that every beat's spike shows however long the recording. Drawn only
/// for a detail whose values were revealed.
enum ECGTraceSVG {
    private static let width = 720.0
    private static let height = 180.0
    private static let margin = 6.0

    static func render(_ trace: ElectrocardiogramTrace, format: ScreenFormat) -> String {
        guard !trace.voltages.isEmpty, trace.sampleRateHertz > 0 else { return "" }
        let id = "ecg-\(trace.recordId)"
        let seconds = trace.seconds
        let low = min(trace.voltages.min() ?? 0, 0)
        let high = max(trace.voltages.max() ?? 0, 0)
        let span = max(high - low, 1)
        func y(_ value: Double) -> Double { margin + (high - value) / span * (height - 2 * margin) }
        var grid = ""
        var tick = 0
        while Double(tick) * 0.2 <= seconds {
            let x = Double(tick) * 0.2 / seconds * width
            grid += "<line class=\"\(tick % 5 == 0 ? "major" : "minor")\" x1=\"\(fixed(x))\" y1=\"0\" "
            grid += "x2=\"\(fixed(x))\" y2=\"\(fixed(height))\"/>"
            tick += 1
        }
        grid += "<line class=\"zero\" x1=\"0\" y1=\"\(fixed(y(0)))\" x2=\"\(fixed(width))\" y2=\"\(fixed(y(0)))\"/>"
        let columns = min(trace.voltages.count, Int(width) * 2)
        var points: [String] = []
        points.reserveCapacity(columns * 2)
        for column in 0..<columns {
            let first = column * trace.voltages.count / columns
            let last = max(first + 1, (column + 1) * trace.voltages.count / columns)
            let slice = trace.voltages[first..<last]
            let x = fixed(Double(column) / Double(max(columns - 1, 1)) * width)
            points.append("\(x),\(fixed(y(slice.max()!)))")
            if slice.count > 1 { points.append("\(x),\(fixed(y(slice.min()!)))") }
        }
        let recorded = format.dateTime(Date(timeIntervalSince1970: trace.recordedAt))
        let title = "ECG recording of \(recorded)"
        let description =
            "\(fixed(seconds)) s at \(fixed(trace.sampleRateHertz)) Hz, \(format.count(trace.voltages.count)) voltages "
            + "from \(fixed(low)) to \(fixed(high)) \(trace.unit)"
            + (trace.classification.map { "; classified \($0)" } ?? "")
        return """
            <svg class="ecg" id="\(id)" viewBox="0 0 \(fixed(width)) \(fixed(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" data-record="\(trace.recordId)" \
            data-voltages="\(trace.voltages.count)" preserveAspectRatio="none">\
            <title id="\(id)-title">\(SVGChart.escape(title))</title>\
            <desc id="\(id)-desc">\(SVGChart.escape(description))</desc>\
            <g class="grid">\(grid)</g><polyline class="trace" points="\(points.joined(separator: " "))"/></svg>
            """
    }

    /// The caption under a trace, in words.
    static func caption(_ trace: ElectrocardiogramTrace, format: ScreenFormat) -> String {
        let recorded = format.dateTime(Date(timeIntervalSince1970: trace.recordedAt))
        var text = "Recorded \(recorded): \(fixed(trace.seconds)) s at \(fixed(trace.sampleRateHertz)) Hz"
        if let classification = trace.classification { text += ", classified \(classification)" }
        return text + "; voltages in \(trace.unit), as the archive keeps them."
    }

    private static func fixed(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens

/// A workout's route before and after it changed, drawn on the server: the route as it was in a
/// muted line, as it is now in the accent colour, and the points it lost in red — the shape of
/// where someone went, so drawn only for a detail whose values were revealed, and never with a
/// coordinate written out (positions are scaled into the drawing's box).
enum RouteTraceSVG {
    private static let size = 360.0
    private static let margin = 12.0

    static func render(_ route: RouteTrace, format: ScreenFormat) -> String {
        let all = route.before + route.after
        guard !all.isEmpty else { return "" }
        let id = "route-\(route.recordId)"
        // Equirectangular, longitude shortened by the latitude's cosine: true to shape over the
        // few kilometres of a workout.
        let latitudes = all.map(\.latitude)
        let longitudes = all.map(\.longitude)
        let middle = (latitudes.min()! + latitudes.max()!) / 2
        let squeeze = max(cos(middle * .pi / 180), 0.01)
        let width = max((longitudes.max()! - longitudes.min()!) * squeeze, 1e-9)
        let height = max(latitudes.max()! - latitudes.min()!, 1e-9)
        let scale = (size - 2 * margin) / max(width, height)
        func point(_ p: RouteTrace.Point) -> String {
            let x = margin + (p.longitude - longitudes.min()!) * squeeze * scale
            let y = margin + (latitudes.max()! - p.latitude) * scale
            return "\(fixed(x)),\(fixed(y))"
        }
        func line(_ points: [RouteTrace.Point], _ kind: String) -> String {
            guard points.count > 1 else { return "" }
            return "<polyline class=\"\(kind)\" data-kind=\"\(kind)\" data-points=\"\(points.count)\" "
                + "points=\"\(points.map(point).joined(separator: " "))\"/>"
        }
        let lost = route.lost
        let marks = lost.map {
            "<circle class=\"lost\" r=\"2.5\" cx=\"\(point($0).split(separator: ",")[0])\" "
                + "cy=\"\(point($0).split(separator: ",")[1])\"/>"
        }.joined()
        let title =
            "Route of the workout of \(route.start.map { format.dateTime(Date(timeIntervalSince1970: $0)) } ?? "an unknown day")"
        let description =
            "\(format.count(route.before.count)) points before, \(format.count(route.after.count)) after, "
            + "\(format.count(lost.count)) lost"
        return """
            <svg class="route" id="\(id)" viewBox="0 0 \(fixed(size)) \(fixed(size))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" data-record="\(route.recordId)" data-lost="\(lost.count)">\
            <title id="\(id)-title">\(SVGChart.escape(title))</title>\
            <desc id="\(id)-desc">\(SVGChart.escape(description))</desc>\
            \(line(route.before, "before"))\(line(route.after, "after"))<g data-kind="lost">\(marks)</g></svg>
            """
    }

    static func caption(_ route: RouteTrace, format: ScreenFormat) -> String {
        let lost = route.lost.count
        return "Grey: the route as the capture before held it (\(format.count(route.before.count)) points); "
            + "blue: as it is now (\(format.count(route.after.count))); red: the \(format.count(lost)) "
            + "point\(lost == 1 ? "" : "s") it lost."
    }

    private static func fixed(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

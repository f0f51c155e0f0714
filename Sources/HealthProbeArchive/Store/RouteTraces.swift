import AppleHealthExport
import Foundation
internal import GRDB

/// A workout's route before and after an anomaly said it changed, for a screen to draw: each
/// point's time and position, as the two captures' files held them.
public struct RouteTrace: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        /// Seconds since 1970, UTC; nil when the point had no time.
        public var time: Double?
        public var latitude: Double
        public var longitude: Double
    }

    public var recordId: Int64
    /// The workout's start, seconds since 1970.
    public var start: Double?
    public var before: [Point]
    public var after: [Point]

    /// The points before that the route after no longer has (by time, else by position).
    public var lost: [Point] {
        let kept = Set(after.map(Self.key))
        return before.filter { !kept.contains(Self.key($0)) }
    }

    private static func key(_ point: Point) -> String {
        point.time.map { "t\($0)" } ?? "p\(point.latitude),\(point.longitude)"
    }
}

extension ArchiveStore {
    /// The routes of anomaly `id`'s workouts (at most `limit`) as the capture before it and the
    /// anomaly's own capture held them; empty for an anomaly that is not about routes.
    public func fetchRouteTraces(anomalyID id: Int64, limit: Int = 3) throws -> [RouteTrace] {
        guard let anomaly = try fetchAnomaly(id: id), anomaly.type == .routeChanged,
            let previous = anomaly.evidence["previousCaptureId"].flatMap({ Int64($0) })
        else { return [] }
        return try read { db in
            let records = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.startDate FROM anomalyRecord a JOIN record r ON r.id = a.recordId
                    WHERE a.anomalyId = ? ORDER BY r.startDate, r.id LIMIT ?
                    """, arguments: [id, limit])
            return try records.map { row in
                let record: Int64 = row["id"]
                return RouteTrace(
                    recordId: record, start: row["startDate"],
                    before: try Self.routePoints(record: record, capture: previous, db),
                    after: try Self.routePoints(record: record, capture: anomaly.captureId, db))
            }
        }
    }

    /// Every point of the record's route files in one capture, in order.
    private static func routePoints(record: Int64, capture: Int64, _ db: Database) throws -> [RouteTrace.Point] {
        let digests = try String.fetchAll(
            db,
            sql: """
                SELECT digest FROM referencedFile WHERE captureId = ? AND recordId = ? AND kind = ?
                    AND digest IS NOT NULL AND problem IS NULL ORDER BY path
                """, arguments: [capture, record, AttachedFile.Kind.route.rawValue])
        var points: [RouteTrace.Point] = []
        for digest in digests {
            guard let bytes = try ReferencedFiles.content(digest: digest, db), let track = TrackCoding.decode(bytes)
            else { continue }
            let scale = Double(DecimalText.scale)
            for index in 0..<track.count {
                guard let latitude = track.value(index, 1), let longitude = track.value(index, 2) else { continue }
                points.append(
                    RouteTrace.Point(
                        time: track.time(of: index), latitude: Double(latitude) / scale,
                        longitude: Double(longitude) / scale))
            }
        }
        return points
    }
}

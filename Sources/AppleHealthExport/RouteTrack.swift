/// A workout route's track as a GPX file of an export holds it: its points, each field as an
/// exact fixed-point number (``DecimalText``), in the order written. What identifies a route: not
/// the file's bytes (an export writes its own time into `<metadata>`) nor its name (a local time).
public struct RouteTrack: Sendable, Hashable {
    /// The fields of a point, in this order: time (seconds since 1970, UTC), latitude, longitude,
    /// elevation, then Apple's extensions (speed, course, horizontal and vertical accuracy).
    public static let fields = ["time", "lat", "lon", "ele", "speed", "course", "hAcc", "vAcc"]
    public static let timeField = 0

    /// Per field, the digits after the point of its most precise value.
    public var decimals: [Int]
    /// Per point, its fields (nil where the file has none), each scaled by 10^``DecimalText/maximumDecimals``.
    public var points: [[Int64?]]
    /// Where each `<trkseg>` after the first begins, as a point index.
    public var segmentStarts: [Int]
    /// Elements inside points that the track does not model, counted.
    public var otherElements: Int

    public init(decimals: [Int], points: [[Int64?]], segmentStarts: [Int] = [], otherElements: Int = 0) {
        self.decimals = decimals
        self.points = points
        self.segmentStarts = segmentStarts
        self.otherElements = otherElements
    }

    /// A point's time in seconds since 1970, when it has one.
    public func time(of point: Int) -> Double? {
        points[point][Self.timeField].map { Double($0) / Double(DecimalText.scale) }
    }
}

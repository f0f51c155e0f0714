/// A workout route's track as a GPX file of an export holds it: its points, each field as an
/// exact fixed-point number (``DecimalText``), in the order written. What identifies a route: not
/// the file's bytes (an export writes its own time into `<metadata>`) nor its name (a local time).
///
/// Stored by column — one array per field and a byte of which fields each point has — so that a
/// route of thousands of points is a few arrays, not an array per point.
public struct RouteTrack: Sendable, Hashable {
    /// The fields of a point, in this order: time (seconds since 1970, UTC), latitude, longitude,
    /// elevation, then Apple's extensions (speed, course, horizontal and vertical accuracy).
    public static let fields = ["time", "lat", "lon", "ele", "speed", "course", "hAcc", "vAcc"]
    public static let timeField = 0

    /// Per field, the digits after the point of its most precise value.
    public var decimals: [Int]
    /// Per field, each point's value scaled by 10^``DecimalText/maximumDecimals`` (0 where the
    /// point has none).
    public private(set) var columns: [[Int64]]
    /// Per point, bit `field` set when the point has that field.
    public private(set) var present: [UInt8]
    /// Where each `<trkseg>` after the first begins, as a point index.
    public var segmentStarts: [Int]
    /// Elements inside points that the track does not model, counted.
    public var otherElements: Int

    public init(decimals: [Int], segmentStarts: [Int] = [], otherElements: Int = 0) {
        self.decimals = decimals
        self.columns = Array(repeating: [], count: Self.fields.count)
        self.present = []
        self.segmentStarts = segmentStarts
        self.otherElements = otherElements
    }

    public var count: Int { present.count }

    /// Adds a point: `values[field]` where bit `field` of `mask` is set.
    public mutating func append(_ values: [Int64], mask: UInt8) {
        for field in 0..<Self.fields.count { columns[field].append(mask & (1 << field) != 0 ? values[field] : 0) }
        present.append(mask)
    }

    /// Field `field` of point `point`, scaled; nil when the point has none.
    public func value(_ point: Int, _ field: Int) -> Int64? {
        present[point] & (1 << field) != 0 ? columns[field][point] : nil
    }

    /// Every field of point `point`.
    public func point(_ point: Int) -> [Int64?] {
        (0..<Self.fields.count).map { value(point, $0) }
    }

    /// A point's time in seconds since 1970, when it has one.
    public func time(of point: Int) -> Double? {
        value(point, Self.timeField).map { Double($0) / Double(DecimalText.scale) }
    }
}

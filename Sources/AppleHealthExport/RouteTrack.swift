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

    /// A track of `columns` (one per field, each a value per point) and `present` (a mask per point).
    public init(
        decimals: [Int], columns: [[Int64]], present: [UInt8], segmentStarts: [Int] = [], otherElements: Int = 0
    ) {
        precondition(decimals.count == Self.fields.count && columns.count == Self.fields.count)
        precondition(columns.allSatisfy { $0.count == present.count })
        self.decimals = decimals
        self.columns = columns
        self.present = present
        self.segmentStarts = segmentStarts
        self.otherElements = otherElements
    }

    /// A track of `rows`: each point's fields in order, 0 where `present` has no bit for one.
    public init(decimals: [Int], rows: [Int64], present: [UInt8], segmentStarts: [Int] = [], otherElements: Int = 0) {
        let fields = Self.fields.count
        precondition(rows.count == present.count * fields)
        let columns = (0..<fields).map { field in
            [Int64](unsafeUninitializedCapacity: present.count) { column, initialized in
                for point in 0..<present.count { column[point] = rows[point * fields + field] }
                initialized = present.count
            }
        }
        self.init(
            decimals: decimals, columns: columns, present: present, segmentStarts: segmentStarts,
            otherElements: otherElements)
    }

    public var count: Int { present.count }

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

#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// What ``GPXTrackParser``'s callbacks keep while a file streams past. It lives behind a pointer
/// the parser allocates once: a point's fields go into fixed buffers, and each point is appended
/// to the track's rows once, all eight fields at a time.
struct GPXReadState {
    /// The longest text a point's field may hold: a number is a few dozen bytes.
    static let maximumFieldBytes = 256
    static let fields = RouteTrack.fields.count

    var context: xmlParserCtxtPtr?
    var depth = 0
    var rootSeen = false
    /// The depth of the `<trkpt>` being read, or -1 outside one.
    var pointDepth = -1
    /// The field whose element is open inside a point, or -1.
    var field = -1
    var failure: GPXTrackParser.Failure?

    private let text = UnsafeMutablePointer<UInt8>.allocate(capacity: maximumFieldBytes)
    private var textCount = 0
    private let values = UnsafeMutablePointer<Int64>.allocate(capacity: fields)
    private var mask: UInt8 = 0
    private var decimals = [Int](repeating: 0, count: fields)
    private var rows: [Int64] = []
    private var present: [UInt8] = []
    private var segmentStarts: [Int] = []
    private var segments = 0
    private var otherElements = 0

    init() {
        values.initialize(repeating: 0, count: Self.fields)
    }

    /// Frees the buffers; called once, by the parser's `deinit`.
    func release() {
        text.deallocate()
        values.deallocate()
    }

    /// The track read so far.
    func track() -> RouteTrack {
        RouteTrack(
            decimals: decimals, rows: rows, present: present, segmentStarts: segmentStarts,
            otherElements: otherElements)
    }

    mutating func stop(_ reason: String) {
        if failure == nil { failure = GPXTrackParser.Failure(reason: reason) }
        if let context { xmlStopParser(context) }
    }

    mutating func startPoint(depth: Int) {
        pointDepth = depth
        mask = 0
    }

    mutating func endPoint() {
        pointDepth = -1
        rows.append(contentsOf: UnsafeBufferPointer(start: values, count: Self.fields))
        present.append(mask)
        for index in 0..<Self.fields { values[index] = 0 }
        if present.count > GPXTrackParser.maximumPoints {
            stop("it holds more than \(GPXTrackParser.maximumPoints) points")
        }
    }

    mutating func startSegment() {
        if segments > 0 { segmentStarts.append(present.count) }
        segments += 1
    }

    mutating func countOtherElement() {
        otherElements += 1
    }

    mutating func openField(_ index: Int) {
        field = index
        textCount = 0
    }

    /// Text inside the open field; a field longer than a number is refused, never cut short.
    mutating func appendText(_ characters: UnsafePointer<UInt8>, count: Int) {
        guard textCount + count <= Self.maximumFieldBytes else {
            return stop("a point holds a field longer than \(Self.maximumFieldBytes) bytes")
        }
        (text + textCount).update(from: characters, count: count)
        textCount += count
    }

    /// Closes the open field, parsing its text.
    mutating func closeField() {
        let index = field
        field = -1
        setField(index, UnsafeRawBufferPointer(start: text, count: textCount))
    }

    /// Parses `bytes` (surrounding white space allowed) into field `index` of the current point.
    mutating func setField(_ index: Int, _ bytes: UnsafeRawBufferPointer) {
        let trimmed = GPXTrackParser.trimmed(bytes)
        let parsed = index == RouteTrack.timeField ? GPXTrackParser.time(trimmed) : DecimalText.parse(trimmed)
        guard let parsed else {
            return stop("point \(present.count + 1) has a \(RouteTrack.fields[index]) that is not a number")
        }
        values[index] = parsed.value
        mask |= 1 << index
        if parsed.decimals > decimals[index] { decimals[index] = parsed.decimals }
    }
}

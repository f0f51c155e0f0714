import Foundation

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

    /// What an open element is to the reader.
    enum Kind: Equatable {
        case root, track, segment, point, extensions, field(Int), other
    }

    /// The namespaces a `<gpx>` root may be in (or none), and so every element read.
    static let namespaces = ["http://www.topografix.com/GPX/1/1", "http://www.topografix.com/GPX/1/0"]
    /// How deep the kinds of open elements are kept; anything deeper is of no kind the reader reads.
    static let maximumDepth = 32

    var context: xmlParserCtxtPtr?
    private(set) var depth = 0
    var rootSeen = false
    /// The field whose element is open inside a point, or -1.
    private var field = -1
    var failure: GPXTrackParser.Failure?
    /// The root's namespace, NUL-terminated; nil when it has none.
    private var namespace: [CChar]?
    /// The last namespace pointer found to be the root's.
    private var lastGPXNamespace: UnsafePointer<xmlChar>?
    private let kinds = UnsafeMutablePointer<Kind>.allocate(capacity: maximumDepth)

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
        kinds.initialize(repeating: .other, count: Self.maximumDepth)
    }

    /// Frees the buffers; called once, by the parser's `deinit`.
    func release() {
        text.deallocate()
        values.deallocate()
        kinds.deinitialize(count: Self.maximumDepth)
        kinds.deallocate()
    }

    /// An element opens.
    mutating func enter(_ kind: Kind) {
        if depth < Self.maximumDepth { kinds[depth] = kind }
        depth += 1
    }

    /// The innermost open element closes: what it was.
    mutating func leave() -> Kind {
        depth -= 1
        return depth >= 0 && depth < Self.maximumDepth ? kinds[depth] : .other
    }

    /// The innermost open element: the parent of one that opens now.
    var innerKind: Kind {
        depth > 0 && depth <= Self.maximumDepth ? kinds[depth - 1] : .other
    }

    /// Takes the root's namespace: GPX's or none; false for any other.
    mutating func setNamespace(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri else { return true }
        let text = String(cString: uri)
        guard Self.namespaces.contains(text) else { return false }
        namespace = Array(text.utf8CString)
        return true
    }

    /// Whether an element of namespace `uri` is in the root's.
    mutating func isGPX(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let namespace else { return uri == nil }
        guard let uri else { return false }
        // libxml2 hands the elements of one namespace declaration the same pointer: the last one
        // found equal is compared first.
        if uri == lastGPXNamespace { return true }
        let equal = namespace.withUnsafeBufferPointer {
            strcmp($0.baseAddress!, UnsafeRawPointer(uri).assumingMemoryBound(to: CChar.self)) == 0
        }
        if equal { lastGPXNamespace = uri }
        return equal
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

    mutating func startPoint() {
        mask = 0
    }

    mutating func endPoint() {
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
        guard mask & (1 << index) == 0 else {
            return stop("point \(present.count + 1) has two \(RouteTrack.fields[index])s")
        }
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

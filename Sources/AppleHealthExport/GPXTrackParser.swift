import Foundation

#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// Reads a GPX file's track points as they stream past, through libxml2's SAX2 push parser set up
/// as for exports (``SAXDocumentParser``): no network, no entities, nothing loaded. Keeps each
/// `<trkpt>`'s coordinates, time, elevation and Apple's extensions; skips `<metadata>` and names.
/// Nothing is allocated per element: names are compared in place, numbers parsed from the bytes.
public final class GPXTrackParser {
    /// Why a file is not a readable route.
    public struct Failure: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The largest GPX file read: an hour's run at a point a second is about 300 KB.
    public static let maximumBytes = 64 << 20
    /// The most points read from one file.
    public static let maximumPoints = 2_000_000

    private var context: xmlParserCtxtPtr?
    fileprivate var depth = 0
    fileprivate var rootSeen = false
    fileprivate var pointDepth: Int?
    fileprivate var field: Int?
    fileprivate var text: [UInt8] = []
    fileprivate var values = [Int64](repeating: 0, count: RouteTrack.fields.count)
    fileprivate var mask: UInt8 = 0
    fileprivate var track = RouteTrack(decimals: [Int](repeating: 0, count: RouteTrack.fields.count))
    fileprivate var segments = 0
    fileprivate var failure: Failure?
    private var bytes = 0

    public init(path: String) {
        var handler = xmlSAXHandler()
        handler.startElementNs = gpxStartElement
        handler.endElementNs = gpxEndElement
        handler.characters = gpxCharacters
        handler.getEntity = gpxGetEntity
        handler.entityDecl = gpxEntityDeclaration
        handler.serror = { _, _ in }
        context = SAXPushContext.make(&handler, userData: Unmanaged.passUnretained(self).toOpaque(), name: path)
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    public func feed(_ chunk: UnsafeRawBufferPointer) throws(Failure) {
        bytes += chunk.count
        guard bytes <= Self.maximumBytes else {
            throw Failure(reason: "it is larger than the \(Self.maximumBytes >> 20) MiB a route may be")
        }
        try parse(chunk, terminate: false)
    }

    /// Ends the file: the track, or why it is not one.
    public func finish() throws(Failure) -> RouteTrack {
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        guard rootSeen else { throw Failure(reason: "it is not a GPX file") }
        return track
    }

    private func parse(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws(Failure) {
        guard let context else { throw Failure(reason: "the XML parser could not be created") }
        if let failure { throw failure }
        try SAXPushContext.feed(context, chunk, terminate: terminate) { wellFormed throws(Failure) in
            if let failure { throw failure }
            if !wellFormed {
                throw Failure(reason: "line \(Int(xmlSAX2GetLineNumber(context))) is not well-formed XML")
            }
        }
    }

    fileprivate func stop(_ reason: String) {
        if failure == nil { failure = Failure(reason: reason) }
        if let context { xmlStopParser(context) }
    }

    fileprivate func startPoint() {
        mask = 0
    }

    fileprivate func endPoint() {
        track.append(values, mask: mask)
        if track.count > Self.maximumPoints { stop("it holds more than \(Self.maximumPoints) points") }
    }

    fileprivate func startSegment() {
        if segments > 0 { track.segmentStarts.append(track.count) }
        segments += 1
    }

    /// Parses `bytes` (surrounding white space allowed) into field `index` of the current point.
    fileprivate func setField(_ index: Int, _ bytes: UnsafeRawBufferPointer) {
        var start = 0
        var end = bytes.count
        while start < end, Self.isSpace(bytes[start]) { start += 1 }
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        let trimmed = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        let parsed = index == RouteTrack.timeField ? Self.time(trimmed) : DecimalText.parse(trimmed)
        guard let parsed else {
            stop("point \(track.count + 1) has a \(RouteTrack.fields[index]) that is not a number")
            return
        }
        values[index] = parsed.value
        mask |= 1 << index
        if parsed.decimals > track.decimals[index] { track.decimals[index] = parsed.decimals }
    }

    fileprivate func countOtherElement() {
        track.otherElements += 1
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// `2000-01-01T08:00:00Z` or `…:00.25Z`: seconds since 1970 scaled as ``DecimalText`` scales.
    static func time(_ text: UnsafeRawBufferPointer) -> (value: Int64, decimals: Int)? {
        guard text.count >= 20, text[text.count - 1] == UInt8(ascii: "Z"), text[10] == UInt8(ascii: "T") else {
            return nil
        }
        let instant = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 25) { stamp -> AppleExportTimestamp? in
            for index in 0..<19 { stamp[index] = text[index] }
            stamp[10] = UInt8(ascii: " ")
            for (offset, byte) in " +0000".utf8.enumerated() { stamp[19 + offset] = byte }
            return AppleExportTimestamp.parse(UnsafeRawBufferPointer(stamp))
        }
        guard let instant else { return nil }
        var fraction: Int64 = 0
        var places = 0
        if text.count > 20 {
            guard text[19] == UInt8(ascii: "."), text.count > 21 else { return nil }
            for index in 20..<(text.count - 1) {
                let digit = Int64(text[index]) &- 48
                guard digit >= 0, digit <= 9, places < DecimalText.maximumDecimals else { return nil }
                fraction = fraction * 10 + digit
                places += 1
            }
        }
        let (seconds, overflow) = instant.secondsSince1970.multipliedReportingOverflow(by: DecimalText.scale)
        guard !overflow else { return nil }
        return (seconds + fraction * DecimalText.power(DecimalText.maximumDecimals - places), places)
    }
}

@inline(__always)
private func gpx(_ context: UnsafeMutableRawPointer?) -> GPXTrackParser {
    Unmanaged<GPXTrackParser>.fromOpaque(context!).takeUnretainedValue()
}

/// Whether the NUL-terminated name is `literal`, compared in place.
@inline(__always)
private func named(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
    guard let name else { return false }
    return strcmp(
        UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
}

/// The point field a child element of `<trkpt>` holds, by name.
private func pointField(_ name: UnsafePointer<xmlChar>?) -> Int? {
    if named(name, "time") { return 0 }
    if named(name, "ele") { return 3 }
    if named(name, "speed") { return 4 }
    if named(name, "course") { return 5 }
    if named(name, "hAcc") { return 6 }
    if named(name, "vAcc") { return 7 }
    return nil
}

private func gpxStartElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    let parser = gpx(context)
    defer { parser.depth += 1 }
    if parser.depth == 0 {
        guard named(localName, "gpx") else { return parser.stop("it is not a GPX file (its root is not <gpx>)") }
        parser.rootSeen = true
        return
    }
    if named(localName, "trkseg") { return parser.startSegment() }
    if parser.pointDepth == nil, named(localName, "trkpt") {
        parser.pointDepth = parser.depth
        parser.startPoint()
        for index in 0..<Int(attributeCount) {
            guard let start = attributes?[index * 5 + 3], let end = attributes?[index * 5 + 4] else { continue }
            let value = UnsafeRawBufferPointer(start: start, count: end - start)
            if named(attributes?[index * 5], "lat") {
                parser.setField(1, value)
            } else if named(attributes?[index * 5], "lon") {
                parser.setField(2, value)
            }
        }
        return
    }
    guard parser.pointDepth != nil, !named(localName, "extensions") else { return }
    if let field = pointField(localName) {
        parser.field = field
        parser.text.removeAll(keepingCapacity: true)
    } else {
        parser.countOtherElement()
    }
}

private func gpxEndElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    let parser = gpx(context)
    parser.depth -= 1
    if let field = parser.field {
        parser.field = nil
        parser.text.withUnsafeBytes { parser.setField(field, $0) }
    } else if parser.pointDepth == parser.depth {
        parser.pointDepth = nil
        parser.endPoint()
    }
}

private func gpxCharacters(_ context: UnsafeMutableRawPointer?, _ characters: UnsafePointer<xmlChar>?, _ length: Int32)
{
    let parser = gpx(context)
    guard parser.field != nil, let characters else { return }
    // A number is a few dozen bytes; a longer field is refused, never cut short into another number.
    guard parser.text.count + Int(length) <= 256 else {
        return parser.stop("a point holds a field longer than 256 bytes")
    }
    parser.text.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(length)))
}

private func gpxGetEntity(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    gpx(context).stop("it refers to an entity, which a route never does")
    return nil
}

private func gpxEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ content: UnsafeMutablePointer<xmlChar>?
) {
    gpx(context).stop("it declares an entity, which a route never does")
}

import Foundation

#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// Reads a GPX file's track points as they stream past, through libxml2's SAX2 push parser set up
/// as for exports (``SAXDocumentParser``): no network, no entities, nothing loaded. Keeps each
/// `<trkpt>`'s coordinates, time, elevation and Apple's extensions; skips `<metadata>` and names.
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
    fileprivate var point: [Int64?] = []
    fileprivate var points: [[Int64?]] = []
    fileprivate var decimals = [Int](repeating: 0, count: RouteTrack.fields.count)
    fileprivate var segmentStarts: [Int] = []
    fileprivate var segments = 0
    fileprivate var otherElements = 0
    fileprivate var failure: Failure?
    private var bytes = 0

    public init(path: String) {
        _ = SAXDocumentParser.installGlobals
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = gpxStartElement
        handler.endElementNs = gpxEndElement
        handler.characters = gpxCharacters
        handler.getEntity = gpxGetEntity
        handler.entityDecl = gpxEntityDeclaration
        handler.serror = { _, _ in }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        context = path.withCString { name in xmlCreatePushParserCtxt(&handler, userData, nil, 0, name) }
        if let context { xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue)) }
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
        return RouteTrack(
            decimals: decimals, points: points, segmentStarts: segmentStarts, otherElements: otherElements)
    }

    private func parse(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws(Failure) {
        guard let context else { throw Failure(reason: "the XML parser could not be created") }
        if let failure { throw failure }
        var offset = 0
        repeat {
            let length = min(chunk.count - offset, 1 << 24)
            let pointer = chunk.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) }
            let status = xmlParseChunk(
                context, pointer, Int32(length), terminate && offset + length >= chunk.count ? 1 : 0)
            offset += length
            if let failure { throw failure }
            if status != 0 || context.pointee.wellFormed == 0 {
                let line = Int(xmlSAX2GetLineNumber(context))
                throw Failure(reason: "line \(line) is not well-formed XML")
            }
        } while offset < chunk.count
    }

    fileprivate func stop(_ reason: String) {
        if failure == nil { failure = Failure(reason: reason) }
        if let context { xmlStopParser(context) }
    }

    fileprivate func endPoint() {
        points.append(point)
        if points.count > Self.maximumPoints { stop("it holds more than \(Self.maximumPoints) points") }
    }

    /// Parses `text` into field `index` of the current point.
    fileprivate func setField(_ index: Int, _ bytes: [UInt8]) {
        var trimmed = bytes[...]
        while let first = trimmed.first, first == 0x20 || first == 0x0A || first == 0x09 || first == 0x0D {
            trimmed = trimmed.dropFirst()
        }
        while let last = trimmed.last, last == 0x20 || last == 0x0A || last == 0x09 || last == 0x0D {
            trimmed = trimmed.dropLast()
        }
        let parsed = index == RouteTrack.timeField ? Self.time(trimmed) : DecimalText.parse(trimmed)
        guard let parsed else {
            stop("point \(points.count + 1) has a \(RouteTrack.fields[index]) that is not a number")
            return
        }
        point[index] = parsed.value
        decimals[index] = max(decimals[index], parsed.decimals)
    }

    /// `2000-01-01T08:00:00Z` or `…:00.25Z`: seconds since 1970 scaled as ``DecimalText`` scales.
    static func time(_ bytes: ArraySlice<UInt8>) -> (value: Int64, decimals: Int)? {
        let text = Array(bytes)
        guard text.count >= 20, text.last == UInt8(ascii: "Z"), text[10] == UInt8(ascii: "T") else { return nil }
        var stamp = Array(text[0..<19])
        stamp[10] = UInt8(ascii: " ")
        stamp += Array(" +0000".utf8)
        guard let instant = stamp.withUnsafeBytes({ ExportTimestamp.parse($0) }) else { return nil }
        var fraction: (value: Int64, decimals: Int) = (0, 0)
        if text.count > 20 {
            guard text[19] == UInt8(ascii: "."),
                let parsed = DecimalText.parse([UInt8(ascii: "0")] + text[19..<(text.count - 1)])
            else { return nil }
            fraction = parsed
        }
        let (seconds, overflow) = instant.secondsSince1970.multipliedReportingOverflow(by: DecimalText.scale)
        guard !overflow else { return nil }
        return (seconds + fraction.value, fraction.decimals)
    }
}

@inline(__always)
private func gpx(_ context: UnsafeMutableRawPointer?) -> GPXTrackParser {
    Unmanaged<GPXTrackParser>.fromOpaque(context!).takeUnretainedValue()
}

private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

private func gpxStartElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    let parser = gpx(context)
    let element = name(localName)
    defer { parser.depth += 1 }
    if parser.depth == 0 {
        guard element == "gpx" else { return parser.stop("it is not a GPX file (its root is <\(element)>)") }
        parser.rootSeen = true
        return
    }
    if element == "trkseg" {
        if parser.segments > 0 { parser.segmentStarts.append(parser.points.count) }
        parser.segments += 1
        return
    }
    if parser.pointDepth == nil, element == "trkpt" {
        parser.pointDepth = parser.depth
        parser.point = [Int64?](repeating: nil, count: RouteTrack.fields.count)
        for index in 0..<Int(attributeCount) {
            let attribute = name(attributes?[index * 5])
            guard let field = ["lat": 1, "lon": 2][attribute], let start = attributes?[index * 5 + 3],
                let end = attributes?[index * 5 + 4]
            else { continue }
            parser.setField(field, Array(UnsafeBufferPointer(start: start, count: end - start)))
        }
        return
    }
    guard parser.pointDepth != nil else { return }
    if element == "extensions" { return }
    if let field = RouteTrack.fields.firstIndex(of: element), field != 1, field != 2 {
        parser.field = field
        parser.text.removeAll(keepingCapacity: true)
    } else {
        parser.otherElements += 1
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
        parser.setField(field, parser.text)
    } else if parser.pointDepth == parser.depth {
        parser.pointDepth = nil
        parser.endPoint()
    }
}

private func gpxCharacters(_ context: UnsafeMutableRawPointer?, _ characters: UnsafePointer<xmlChar>?, _ length: Int32)
{
    let parser = gpx(context)
    guard parser.field != nil, let characters, parser.text.count + Int(length) <= 256 else { return }
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

import Foundation

#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// Reads a GPX file's track points as they stream past, through libxml2's SAX2 push parser set up
/// as for exports (``SAXDocumentParser``): no network, no entities, nothing loaded. Keeps each
/// `<trkpt>`'s coordinates, time, elevation and Apple's extensions; skips `<metadata>` and names.
/// Nothing is allocated per element: names are compared in place, numbers parsed from the bytes,
/// and the callbacks work on state behind a pointer (``GPXReadState``), which Swift neither
/// checks for exclusive access nor for uniqueness on every field a point sets.
public final class GPXTrackParser {
    /// Why a file is not a readable route.
    public struct Failure: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The largest GPX file read: an hour's run at a point a second is about 300 KB.
    public static let maximumBytes = 64 << 20
    /// The most points read from one file.
    public static let maximumPoints = 2_000_000

    /// Why a file larger than ``maximumBytes`` is not read.
    public static let tooLarge = Failure(reason: "it is larger than the \(maximumBytes >> 20) MiB a route may be")

    private var context: xmlParserCtxtPtr?
    private let state: UnsafeMutablePointer<GPXReadState>
    private var bytes = 0

    public init(path: String) {
        state = .allocate(capacity: 1)
        state.initialize(to: GPXReadState())
        var handler = xmlSAXHandler()
        handler.startElementNs = gpxStartElement
        handler.endElementNs = gpxEndElement
        handler.characters = gpxCharacters
        handler.getEntity = gpxGetEntity
        handler.entityDecl = gpxEntityDeclaration
        handler.serror = { _, _ in }
        context = SAXPushContext.make(&handler, userData: UnsafeMutableRawPointer(state), name: path)
        state.pointee.context = context
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    public func feed(_ chunk: UnsafeRawBufferPointer) throws(Failure) {
        bytes += chunk.count
        guard bytes <= Self.maximumBytes else { throw Self.tooLarge }
        try parse(chunk, terminate: false)
    }

    /// Ends the file: the track, or why it is not one.
    public func finish() throws(Failure) -> RouteTrack {
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        guard state.pointee.rootSeen else { throw Failure(reason: "it is not a GPX file") }
        return state.pointee.track()
    }

    private func parse(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws(Failure) {
        guard let context else { throw Failure(reason: "the XML parser could not be created") }
        if let failure = state.pointee.failure { throw failure }
        try SAXPushContext.feed(context, chunk, terminate: terminate) { wellFormed throws(Failure) in
            if let failure = state.pointee.failure { throw failure }
            if !wellFormed {
                throw Failure(reason: "line \(Int(xmlSAX2GetLineNumber(context))) is not well-formed XML")
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// `bytes` without the white space around them.
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// `2000-01-01T08:00:00Z` or `…:00.25Z`: seconds since 1970 scaled as ``DecimalText`` scales.
    static func time(_ text: UnsafeRawBufferPointer) -> (value: Int64, decimals: Int)? {
        guard text.count >= 20, text[text.count - 1] == UInt8(ascii: "Z"), text[10] == UInt8(ascii: "T") else {
            return nil
        }
        // The export's own form, `2000-01-01 08:00:00 +0000`, read by its parser.
        var stamp: (UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0)
        let instant = withUnsafeMutableBytes(of: &stamp) { stamp -> AppleExportTimestamp? in
            stamp.copyMemory(from: UnsafeRawBufferPointer(rebasing: text[0..<19]))
            stamp[10] = UInt8(ascii: " ")
            stamp[19] = UInt8(ascii: " ")
            stamp[20] = UInt8(ascii: "+")
            for index in 21..<25 { stamp[index] = UInt8(ascii: "0") }
            return AppleExportTimestamp.parse(UnsafeRawBufferPointer(rebasing: stamp[0..<25]))
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
private func gpx(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<GPXReadState> {
    context!.assumingMemoryBound(to: GPXReadState.self)
}

/// Whether the NUL-terminated name is `literal`, compared in place.
@inline(__always)
private func named(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
    guard let name else { return false }
    return strcmp(
        UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
}

/// The point field a child element of `<trkpt>` holds, by name; its first byte picks the one
/// name to compare. Time and elevation stand in the point itself, the rest in its `<extensions>`
/// (where Apple writes speed, course and the accuracies, in the GPX namespace).
private func pointField(_ name: UnsafePointer<xmlChar>, inExtensions: Bool) -> Int? {
    switch name[0] {
    case UInt8(ascii: "t"): !inExtensions && named(name, "time") ? 0 : nil
    case UInt8(ascii: "e"): !inExtensions && named(name, "ele") ? 3 : nil
    case UInt8(ascii: "s"): inExtensions && named(name, "speed") ? 4 : nil
    case UInt8(ascii: "c"): inExtensions && named(name, "course") ? 5 : nil
    case UInt8(ascii: "h"): inExtensions && named(name, "hAcc") ? 6 : nil
    case UInt8(ascii: "v"): inExtensions && named(name, "vAcc") ? 7 : nil
    default: nil
    }
}

/// What an element is to the reader, by its name, its namespace and its parent's kind: only
/// `<gpx>/<trk>/<trkseg>/<trkpt>` is a point, and only elements of the root's namespace (GPX's,
/// or none) count — as any GPX reader reads them.
private func kind(
    of name: UnsafePointer<xmlChar>, inGPX: Bool, parent: GPXReadState.Kind
) -> GPXReadState.Kind {
    guard inGPX else { return .other }
    switch parent {
    case .root: return named(name, "trk") ? .track : .other
    case .track: return named(name, "trkseg") ? .segment : .other
    case .segment: return named(name, "trkpt") ? .point : .other
    case .point:
        if named(name, "extensions") { return .extensions }
        return pointField(name, inExtensions: false).map { .field($0) } ?? .other
    case .extensions: return pointField(name, inExtensions: true).map { .field($0) } ?? .other
    case .field, .other: return .other
    }
}

private func gpxStartElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    let state = gpx(context)
    guard let localName else { return state.pointee.enter(.other) }
    if state.pointee.depth == 0 {
        guard named(localName, "gpx") else {
            state.pointee.enter(.other)
            return state.pointee.stop("it is not a GPX file (its root is not <gpx>)")
        }
        guard state.pointee.setNamespace(uri) else {
            state.pointee.enter(.other)
            return state.pointee.stop("it is not a GPX file (its <gpx> is not in GPX's namespace)")
        }
        state.pointee.rootSeen = true
        return state.pointee.enter(.root)
    }
    let parent = state.pointee.innerKind
    let element = kind(of: localName, inGPX: state.pointee.isGPX(uri), parent: parent)
    state.pointee.enter(element)
    switch element {
    case .segment: state.pointee.startSegment()
    case .point:
        state.pointee.startPoint()
        for index in 0..<Int(attributeCount) {
            // An attribute of the point's own (no namespace): `f:lat` is another's.
            guard attributes?[index * 5 + 2] == nil, let start = attributes?[index * 5 + 3],
                let end = attributes?[index * 5 + 4]
            else { continue }
            let value = UnsafeRawBufferPointer(start: start, count: end - start)
            if named(attributes?[index * 5], "lat") {
                state.pointee.setField(1, value)
            } else if named(attributes?[index * 5], "lon") {
                state.pointee.setField(2, value)
            }
        }
    case .field(let field): state.pointee.openField(field)
    case .other where parent == .point: state.pointee.countOtherElement()
    default: break
    }
}

private func gpxEndElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    let state = gpx(context)
    switch state.pointee.leave() {
    case .field: state.pointee.closeField()
    case .point: state.pointee.endPoint()
    default: break
    }
}

private func gpxCharacters(_ context: UnsafeMutableRawPointer?, _ characters: UnsafePointer<xmlChar>?, _ length: Int32)
{
    let state = gpx(context)
    guard case .field = state.pointee.innerKind, let characters else { return }
    state.pointee.appendText(characters, count: Int(length))
}

private func gpxGetEntity(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    gpx(context).pointee.stop("it refers to an entity, which a route never does")
    return nil
}

private func gpxEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ content: UnsafeMutablePointer<xmlChar>?
) {
    gpx(context).pointee.stop("it declares an entity, which a route never does")
}

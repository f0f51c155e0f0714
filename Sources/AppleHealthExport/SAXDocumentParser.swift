import Foundation

// libxml2: on Apple platforms the SDK's own module; on Linux the system library through our shim
// (found with pkg-config), which also keeps libxml2's ICU headers away from Foundation's.
#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// libxml2's SAX2 push parser, configured for untrusted exports: no network, no entity
/// substitution, no DTD loading, an external-entity loader that refuses everything, and any
/// entity reference other than the five predefined ones treated as fatal.
///
/// It collects each top-level element (a child of `HealthData`) into an ``ElementScratch`` and
/// hands it to `onElement` when the element closes.
final class SAXDocumentParser {
    struct Failure: Error {
        var message: String
        var line: Int
        /// The document may be well-formed, but it is beyond what an Apple Health export holds
        /// (nesting, a value's length): refused, not called broken.
        var beyondLimits = false
    }

    private var context: xmlParserCtxtPtr?
    fileprivate var scratch = ElementScratch()
    fileprivate var depth = 0
    /// How deep elements may nest: Apple's export nests four levels (`HealthData`, `Workout`,
    /// `WorkoutEvent`, `MetadataEntry`); a document nested deeper than this is not one, and
    /// reading it on would only build a value as deep as the document (thousands of levels
    /// overflow the stack where the value is released).
    static let maximumDepth = 32
    fileprivate var collecting = false
    fileprivate var failure: Failure?
    fileprivate var sinkError: (any Error)?
    fileprivate let onElement: (borrowing ElementScratch) throws -> Void
    fileprivate(set) var exportDateText: String?
    fileprivate(set) var locale: String?
    fileprivate(set) var rootClosed = false
    fileprivate(set) var personalElementsSkipped = 0

    init(fileName: String, onElement: @escaping (borrowing ElementScratch) throws -> Void) {
        self.onElement = onElement
        var handler = xmlSAXHandler()
        handler.startElementNs = saxStartElement
        handler.endElementNs = saxEndElement
        handler.characters = saxCharacters
        handler.getEntity = saxGetEntity
        handler.entityDecl = saxEntityDeclaration
        handler.serror = saxStructuredError
        context = SAXPushContext.make(&handler, userData: Unmanaged.passUnretained(self).toOpaque(), name: fileName)
    }

    deinit {
        if let context {
            xmlFreeParserCtxt(context)
        }
    }

    /// Feeds bytes; throws the first well-formedness error or the sink's error.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parse(bytes, terminate: false)
    }

    /// Ends the document; throws if it is incomplete.
    func finish() throws {
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) throws {
        guard let context else { throw Failure(message: "the XML parser could not be created", line: 0) }
        try SAXPushContext.feed(context, bytes, terminate: terminate) { wellFormed in
            if let sinkError { throw sinkError }
            if let failure { throw failure }
            if !wellFormed { throw lastError(context) }
        }
    }

    private func lastError(_ context: xmlParserCtxtPtr) -> Failure {
        if let error = xmlCtxtGetLastError(context), let message = error.pointee.message {
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            if let limit = Self.limitReached(text) {
                return Failure(message: limit, line: Int(error.pointee.line), beyondLimits: true)
            }
            return Failure(
                message: XMLFaultWords.words(code: error.pointee.code, column: error.pointee.int2),
                line: Int(error.pointee.line))
        }
        return Failure(message: "the document is not well-formed", line: Int(xmlSAX2GetLineNumber(context)))
    }

    /// libxml2's words for the limits it keeps without its huge-input option, in the user's: an
    /// attribute or text of more than 10 MB, a name of more than 50,000 bytes, nesting beyond
    /// its own depth. Apple writes none of these; nil for every other error.
    static func limitReached(_ libxml2Message: String) -> String? {
        let lowercased = libxml2Message.lowercased()
        if lowercased.contains("huge input lookup") || lowercased.contains("huge text node")
            || lowercased.contains("length too long") || lowercased.contains("text too long")
        {
            return "a value (an attribute or a text) longer than 10 MB; an Apple Health export's values are short"
        }
        if lowercased.contains("name too long") {
            return "an element or attribute name longer than 50,000 bytes"
        }
        if lowercased.contains("excessive depth") {
            return "elements are nested deeper than an XML reader follows (an Apple Health export nests a few levels)"
        }
        return nil
    }

    fileprivate func stop(_ failure: Failure) {
        if self.failure == nil { self.failure = failure }
        if let context { xmlStopParser(context) }
    }

    fileprivate var currentLine: Int {
        context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0
    }
}

@inline(__always)
private func parser(_ context: UnsafeMutableRawPointer?) -> SAXDocumentParser {
    Unmanaged<SAXDocumentParser>.fromOpaque(context!).takeUnretainedValue()
}

/// Runs `body` with the parser, which outlives every callback, without retaining it: the callbacks
/// of every element (its start, its end, the text around it) would each retain and release it.
@inline(__always)
private func withParser(_ context: UnsafeMutableRawPointer?, _ body: (SAXDocumentParser) -> Void) {
    Unmanaged<SAXDocumentParser>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
}

@inline(__always)
private func span(_ pointer: UnsafePointer<xmlChar>?) -> UnsafeRawBufferPointer {
    guard let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(
        start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)))
}

private func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
    return memcmp(base, literal.utf8Start, bytes.count) == 0
}

private func saxStartElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    withParser(context) { parser in
        let name = span(localName)
        guard parser.depth < SAXDocumentParser.maximumDepth else {
            parser.stop(
                .init(
                    message: "elements are nested more than \(SAXDocumentParser.maximumDepth) deep (an Apple Health "
                        + "export nests a few levels)", line: parser.currentLine, beyondLimits: true))
            return
        }
        defer { parser.depth += 1 }
        switch parser.depth {
        case 0:
            guard equals(name, "HealthData") else {
                parser.stop(
                    .init(
                        message: "the root element is <\(String(decoding: name, as: UTF8.self))>, not <HealthData>",
                        line: parser.currentLine))
                return
            }
            parser.locale = attributeValue(named: "locale", attributes, attributeCount)
            return
        case 1:
            if equals(name, "ExportDate") {
                parser.exportDateText = attributeValue(named: "value", attributes, attributeCount)
                parser.collecting = false
                return
            }
            if equals(name, "Me") {
                // Personal characteristics are never read.
                parser.personalElementsSkipped += 1
                parser.collecting = false
                return
            }
            parser.scratch.reset()
            parser.collecting = true
        default:
            guard parser.collecting else { return }
        }
        // One access to the parser's scratch for the whole element: each access to a class's
        // property is checked for exclusivity at run time.
        parser.scratch.open(name: name, attributes: attributes, count: Int(attributeCount))
    }
}

extension ElementScratch {
    /// Opens an element with the attributes libxml2 gives: five pointers each (local name,
    /// prefix, URI, value start, value end).
    fileprivate mutating func open(
        name: UnsafeRawBufferPointer, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int
    ) {
        open(name: name)
        guard let attributes else { return }
        for index in 0..<count {
            let base = index * 5
            let value = UnsafeRawBufferPointer(
                start: attributes[base + 3], count: attributes[base + 4]! - attributes[base + 3]!)
            addAttribute(name: span(attributes[base]), value: value)
        }
    }
}

private func attributeValue(
    named wanted: StaticString, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ count: Int32
) -> String? {
    guard let attributes else { return nil }
    for index in 0..<Int(count) where equals(span(attributes[index * 5]), wanted) {
        let start = attributes[index * 5 + 3]!
        let end = attributes[index * 5 + 4]!
        return String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
    }
    return nil
}

private func saxEndElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    withParser(context) { parser in
        parser.depth -= 1
        switch parser.depth {
        case 0:
            parser.rootClosed = true
        case 1:
            guard parser.collecting else { return }
            parser.scratch.close()
            parser.collecting = false
            // Handed over by moving it out and back: passing the parser's own property would copy
            // it (a retain and release of each of its buffers) for every element of the export.
            var scratch = ElementScratch.placeholder
            swap(&scratch, &parser.scratch)
            defer { swap(&scratch, &parser.scratch) }
            do {
                try parser.onElement(scratch)
            } catch {
                parser.sinkError = error
                parser.stop(.init(message: "stopped", line: parser.currentLine))
            }
        default:
            if parser.collecting { parser.scratch.close() }
        }
    }
}

private func saxCharacters(_ context: UnsafeMutableRawPointer?, _ characters: UnsafePointer<xmlChar>?, _ length: Int32)
{
    withParser(context) { parser in
        guard parser.collecting, parser.depth >= 2 else { return }
        parser.scratch.appendText(UnsafeRawBufferPointer(start: characters, count: Int(length)))
    }
}

private func saxGetEntity(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    let parser = parser(context)
    // Not named: an entity's name is the file's text (it may be a person's name).
    parser.stop(
        .init(
            message: "an entity reference other than XML's five is not allowed in an Apple Health export",
            line: parser.currentLine))
    return nil
}

private func saxEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ content: UnsafeMutablePointer<xmlChar>?
) {
    let parser = parser(context)
    parser.stop(
        .init(message: "entity declarations are not allowed in an Apple Health export", line: parser.currentLine))
}

private func saxStructuredError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    // Errors are read from the parser context after each chunk; nothing is printed.
}

#if canImport(libxml2)
    import libxml2
#else
    import CLibXML2
#endif

/// What every libxml2 push parser of the reader shares: one set-up for untrusted input — network
/// off, no entity substitution, no DTD loading, the refusing external-entity loader installed —
/// and the feeding of chunks in slices libxml2's Int32 lengths can take.
enum SAXPushContext {
    /// libxml2's process-wide set-up, once: initialised, and an external-entity loader that
    /// refuses everything.
    private static let installGlobals: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    /// A push parser with `handler`'s callbacks and `userData`; nil when libxml2 could not make one.
    static func make(_ handler: inout xmlSAXHandler, userData: UnsafeMutableRawPointer, name: String)
        -> xmlParserCtxtPtr?
    {
        _ = installGlobals
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        let context = name.withCString { xmlCreatePushParserCtxt(&handler, userData, nil, 0, $0) }
        if let context { xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue)) }
        return context
    }

    /// Feeds `bytes` (the end of the document when `terminate`), calling `check` after each
    /// slice with whether libxml2 still finds the document well-formed; `check` throws to stop.
    static func feed<Failure: Error>(
        _ context: xmlParserCtxtPtr, _ bytes: UnsafeRawBufferPointer, terminate: Bool,
        check: (_ wellFormed: Bool) throws(Failure) -> Void
    ) throws(Failure) {
        var offset = 0
        repeat {
            let length = min(bytes.count - offset, 1 << 24)
            let pointer = bytes.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) }
            let status = xmlParseChunk(
                context, pointer, Int32(length), terminate && offset + length >= bytes.count ? 1 : 0)
            offset += length
            try check(status == 0 && context.pointee.wellFormed != 0)
        } while offset < bytes.count
    }
}

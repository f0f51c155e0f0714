import AppleHealthExport

/// libFuzzer entry point: any byte string goes through the whole reader — prolog filter,
/// character filter, libxml2 SAX2, element mapping. It may throw `AppleExportError`; it must never
/// crash, hang, or read outside the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExportReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reader = AppleExportReader(source: .inMemory(bytes, name: "fuzz.xml"))
    var elements = 0
    _ = try? reader.read { element in
        elements += 1
        _ = element.elementName
    }
    return 0
}

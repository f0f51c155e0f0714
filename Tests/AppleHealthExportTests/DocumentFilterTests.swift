import Testing

@testable import AppleHealthExport

@Suite("The byte filter before libxml2")
struct DocumentFilterTests {
    /// Runs `input` through the filter in chunks of `chunkSize` bytes.
    static func filter(_ input: [UInt8], chunkSize: Int) throws -> (output: [UInt8], filter: DocumentFilter) {
        var filter = DocumentFilter()
        var output: [UInt8] = []
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunkSize, input.count)
            try input[offset..<end].withUnsafeBytes { chunk in
                try filter.process(chunk) { output.append(contentsOf: $0) }
            }
            offset = end
        }
        try filter.finish { output.append(contentsOf: $0) }
        return (output, filter)
    }

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 12 -->
        <!ATTLIST Broken
          startDate
          value "unterminated >
        ]>
        <HealthData locale="en_US"><Record value="a\u{0B}b ✓"/></HealthData>
        """

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func internalSubsetIsDroppedKeepingLineNumbers(_ chunkSize: Int) throws {
        let (output, filter) = try Self.filter(Array(Self.document.utf8), chunkSize: chunkSize)
        let text = String(decoding: output, as: UTF8.self)
        #expect(!text.contains("DOCTYPE"))
        #expect(!text.contains("ATTLIST"))
        #expect(text.components(separatedBy: "\n").count == Self.document.components(separatedBy: "\n").count)
        #expect(filter.rootName == "HealthData")
        #expect(filter.exportVersion == 12)
    }

    @Test(arguments: [1, 2, 5, 4096])
    func forbiddenCharactersBecomeReplacementCharacters(_ chunkSize: Int) throws {
        let (output, filter) = try Self.filter(Array(Self.document.utf8), chunkSize: chunkSize)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("a\u{FFFD}b ✓"))
        #expect(filter.replacedCharacters == 1)
    }

    @Test(arguments: [1, 3, 4096])
    func malformedUTF8IsReplacedAndValidMultibyteSurvivesChunkBoundaries(_ chunkSize: Int) throws {
        var bytes = Array("<HealthData><R v=\"".utf8)
        bytes += [0xE2, 0x9C, 0x93]  // ✓, valid
        bytes += [0xC3]  // a lead byte with no continuation
        bytes += Array("x".utf8)
        bytes += [0xED, 0xA0, 0x80]  // an encoded surrogate
        bytes += [0xEF, 0xBF, 0xBE]  // U+FFFE
        bytes += Array("\"/></HealthData>".utf8)
        let (output, filter) = try Self.filter(bytes, chunkSize: chunkSize)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("✓\u{FFFD}x"))
        #expect(!text.contains("\u{FFFE}"))
        #expect(filter.replacedCharacters == 1 + 3 + 1)
    }

    @Test func entityDeclarationIsRefused() throws {
        let document = "<!DOCTYPE HealthData [<!ENTITY a \"b\">]><HealthData/>"
        #expect(throws: PrologFilter.Failure.entityDeclaration) {
            _ = try Self.filter(Array(document.utf8), chunkSize: 8)
        }
    }

    @Test func documentWithoutRootIsRefused() throws {
        #expect(throws: PrologFilter.Failure.noRootElement) {
            _ = try Self.filter(Array("<?xml version=\"1.0\"?>\n<!-- nothing -->\n".utf8), chunkSize: 8)
        }
    }
}

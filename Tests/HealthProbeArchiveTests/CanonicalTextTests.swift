import AppleHealthExport
import Testing

@testable import HealthProbeArchive

/// Stored metadata and details are canonical text that fingerprints hash: their bytes must not
/// change from version to version.
@Suite("Canonical JSON and UTC text")
struct CanonicalTextTests {
    @Test func stringsEscapeQuotesBackslashesAndControlCharactersOnly() {
        let text = CanonicalJSON.string("a\"b\\c\nd\re\tf\u{01}g é ✓").text
        #expect(text == #""a\"b\\c\nd\re\tf\u0001g é ✓""#)
    }

    @Test func objectsAndArraysKeepTheirOrder() {
        let value = CanonicalJSON.object([
            ("z", .integer(-3)), ("a", .array([.string("x"), .integer(7)])), ("m", .object([])),
        ])
        #expect(value.text == #"{"z":-3,"a":["x",7],"m":{}}"#)
    }

    @Test func instantsAreWrittenInUTCWithFractionsOnlyWhenPresent() {
        #expect(UTCText.iso8601(seconds: 946_684_800) == "2000-01-01T00:00:00Z")
        #expect(UTCText.iso8601(seconds: 946_684_800.25) == "2000-01-01T00:00:00.25Z")
        #expect(UTCText.iso8601(seconds: -1) == "1969-12-31T23:59:59Z")
        #expect(UTCText.day(10_957) == "2000-01-01")
        // Years of fewer or more than four digits, padded as they always were.
        #expect(UTCText.iso8601(seconds: -61_978_838_400) == "0005-12-20T08:00:00Z")
        #expect(UTCText.iso8601(seconds: 253_402_300_800) == "10000-01-01T00:00:00Z")
        #expect(UTCText.iso8601(seconds: 946_684_800.000001) == "2000-01-01T00:00:00.000001Z")
        #expect(UTCText.day(-719_893) == "00-1-01-01")
    }

    @Test(arguments: [
        [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")],
        [MetadataEntry(key: "quote\"d", value: "line\nbreak")],
        [
            MetadataEntry(
                key: "HKMetadataKeySyncIdentifier", value: "2000-01-01 09:30:00 +0100",
                timestamp: AppleExportTimestamp(exportText: "2000-01-01 09:30:00 +0100"))
        ],
        [
            MetadataEntry(key: "b", value: "2"), MetadataEntry(key: "a", value: "1"),
            MetadataEntry(key: "a", value: "0"),
        ],
    ])
    func metadataTextIsTheGeneralRendering(_ entries: [MetadataEntry]) {
        #expect(CanonicalJSON.metadataText(entries) == CanonicalJSON.metadata(entries)?.text)
        #expect(CanonicalJSON.metadataText([]) == nil)
    }
}

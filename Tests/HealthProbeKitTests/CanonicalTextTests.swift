import Testing

@testable import HealthProbeKit

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
    }
}

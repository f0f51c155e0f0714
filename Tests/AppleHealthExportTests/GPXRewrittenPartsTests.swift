import AppleHealthExport
import Foundation
import TestSupport
import Testing

/// The parts of a route's GPX every export writes anew — the export's time, the track's name —
/// set aside when a route's bytes name it from export to export: Apple's shape only, nothing that
/// could read differently.
@Suite("The parts of a route every export rewrites")
struct GPXRewrittenPartsTests {
    static func setAside(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { head in
            GPXRewrittenParts.spans(in: head).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    static let opening = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">

        """

    static func route(time: String = "2000-01-01T00:00:00Z", name: String = "Route 2000-01-01 8:00am") -> String {
        opening + "  <metadata><time>\(time)</time></metadata>\n  <trk>\n   <name>\(name)</name><trkseg/></trk></gpx>"
    }

    @Test func theFixturesRouteHasItsTimeAndNameSetAside() throws {
        let url = FixtureFiles.url("dogsheep/unzipped/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
            Self.setAside(text) == [
                "<metadata>\n    <time>2019-11-07T03:43:52Z</time>\n  </metadata>",
                "<name>Route 2019-06-11 3:00pm</name>",
            ])
    }

    @Test func timesAsISO8601WritesThemAndPlainNamesAreSetAside() {
        for time in ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00.250Z", "2000-01-01T09:00:00+09:00"] {
            #expect(Self.setAside(Self.route(time: time)).first == "<metadata><time>\(time)</time></metadata>")
        }
        #expect(
            Self.setAside(Self.route(name: "Route 1 janv. 2000 à 08:00")).last
                == "<name>Route 1 janv. 2000 à 08:00</name>")
        #expect(Self.setAside(Self.route(name: "")).last == "<name></name>")
    }

    /// A name that is not plain text keeps its bytes; the time is still set aside.
    @Test func aNameOfMarkupOrReferencesIsKept() {
        for name in ["Route &amp; more", "<![CDATA[Route]]>", "Route\u{1}", String(repeating: "R", count: 257)] {
            #expect(Self.setAside(Self.route(name: name)) == ["<metadata><time>2000-01-01T00:00:00Z</time></metadata>"])
        }
        #expect(Self.setAside(Self.route().replacingOccurrences(of: "<trk>", with: "<trk><!-- -->")).count == 1)
    }

    /// Anything else keeps every byte: text of a comment, a processing instruction, other
    /// children, a time that is not one, an element beyond the bytes looked at.
    @Test func nothingOfAnotherShapeIsSetAside() {
        let element = "<metadata><time>2000-01-01T00:00:00Z</time></metadata>"
        let refused = [
            Self.opening + "<!-- " + element + " -->",
            Self.opening + "<?note " + element + " ?>",
            "<gpx version=\"1.1\">" + element,
            Self.opening + "<trk/>" + element,
            Self.opening + "<metadata><time>2000-01-01T00:00:00Z</time><name>x</name></metadata>",
            Self.opening + "<metadata><name>x</name><time>2000-01-01T00:00:00Z</time></metadata>",
            Self.route(time: "2000-01-01T00:00:00"),
            Self.route(time: "2000--01-01T00:00:00Z"),
            Self.route(time: "2000-01-01T00:00:00+0900"),
            Self.opening + "<metadata><time>2000-01-01T00:00:00Z</time>",
            Self.opening + String(repeating: " ", count: GPXRewrittenParts.searchedBytes) + element,
        ]
        for text in refused {
            #expect(Self.setAside(text).isEmpty, "\(text)")
        }
    }
}

import AppleHealthExport
import Foundation
import TestSupport
import Testing

/// The export's own time in a route's GPX, the bytes set aside when a route's bytes name it from
/// export to export: Apple's shape only, nothing that could read differently.
@Suite("The export's time in a route")
struct GPXExportTimeTests {
    static func setAside(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { head in
            GPXExportTime.span(in: head).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    static let opening = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">

        """

    @Test func theFixturesRouteHasItsExportTimeSetAside() throws {
        let url = FixtureFiles.url("dogsheep/unzipped/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(Self.setAside(text) == "<metadata>\n    <time>2019-11-07T03:43:52Z</time>\n  </metadata>")
    }

    @Test func timesAsISO8601WritesThemAreSetAside() {
        for time in ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00.250Z", "2000-01-01T09:00:00+09:00"] {
            let element = "<metadata><time>\(time)</time></metadata>"
            #expect(Self.setAside(Self.opening + "  " + element + "\n  <trk/></gpx>") == element)
        }
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
            Self.opening + "<metadata><time>2000-01-01T00:00:00</time></metadata>",
            Self.opening + "<metadata><time>2000--01-01T00:00:00Z</time></metadata>",
            Self.opening + "<metadata><time>2000-01-01T00:00:00+0900</time></metadata>",
            Self.opening + "<metadata><time>2000-01-01T00:00:00Z</time>",
            Self.opening + String(repeating: " ", count: GPXExportTime.searchedBytes) + element,
        ]
        for text in refused {
            #expect(Self.setAside(text) == nil, "\(text)")
        }
    }
}

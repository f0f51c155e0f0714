import Foundation
import Testing

@testable import HealthProbeArchive

/// A route's bytes named less the parts every export writes anew: the same route renamed in
/// another zone names the same bytes, and no byte put where a part was can pass for it.
@Suite("Route bytes named less the rewritten parts")
struct RouteSourceDigestTests {
    static func digest(_ text: String, piece: Int = 37) -> String {
        var digest = RouteSourceDigest()
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: piece) {
            bytes[start..<min(start + piece, bytes.count)].withUnsafeBytes { digest.update($0) }
        }
        return digest.finalize()
    }

    static func route(time: String = "2000-01-05T10:00:00Z", name: String = "<name>Route 2000-01-01 8:00am</name>")
        -> String
    {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><time>\(time)</time></metadata>
          <trk>\(name)<trkseg>
        <trkpt lon="0.002000" lat="0.001000"><ele>4.000000</ele><time>2000-01-01T08:00:00Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """
    }

    @Test func onlyTheExportsTimeAndTheTracksNameAreSetAside() {
        let original = Self.digest(Self.route())
        #expect(Self.digest(Self.route(time: "2001-07-09T23:59:59Z")) == original)
        #expect(Self.digest(Self.route(name: "<name>Route 2000-01-01 10:00am</name>"), piece: 5) == original)
        // A byte where the name was, or none at all, is another file.
        #expect(Self.digest(Self.route(name: "\u{0}")) != original)
        #expect(Self.digest(Self.route(name: "")) != original)
        #expect(Self.digest(Self.route(name: "\u{0}")) != Self.digest(Self.route(name: "")))
        // A point changed is another file.
        #expect(Self.digest(Self.route().replacingOccurrences(of: "4.000000", with: "4.000001")) != original)
    }
}

import AppleHealthExport
import Foundation
import TestSupport
import Testing

/// Route files read as tracks: every point's fields exact, the metadata and names left out, and
/// hostile or broken files refused with a reason.
@Suite("GPX tracks")
struct GPXTrackParserTests {
    static func parse(_ text: String, chunk: Int = 64) throws -> RouteTrack {
        let parser = GPXTrackParser(path: "/workout-routes/test.gpx")
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { try parser.feed($0) }
        }
        return try parser.finish()
    }

    @Test func theFixturesRouteIsReadPointForPoint() throws {
        let url = FixtureFiles.url("dogsheep/unzipped/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
        let track = try Self.parse(try String(contentsOf: url, encoding: .utf8))
        #expect(track.count == 3)
        #expect(track.decimals == [0, 6, 6, 6, 6, 6, 6, 6])
        #expect(DecimalText.text(try #require(track.value(0, 2)), decimals: 6) == "-122.396397")
        #expect(DecimalText.text(try #require(track.value(1, 1)), decimals: 6) == "37.781670")
        #expect(DecimalText.text(try #require(track.value(2, 7)), decimals: 6) == "6.549587")
        #expect(track.time(of: 0) == 1_560_290_442)
        #expect(track.otherElements == 0)
    }

    @Test func fractionalTimesSegmentsAndUnknownElementsAreKept() throws {
        let track = try Self.parse(
            """
            <gpx><trk><trkseg><trkpt lat="1.5" lon="-2"><time>2000-01-01T00:00:00.25Z</time><cadence>80</cadence></trkpt>
            </trkseg><trkseg><trkpt lat="1.6" lon="-2.1"/></trkseg></trk></gpx>
            """, chunk: 7)
        #expect(track.count == 2)
        #expect(track.time(of: 0) == 946_684_800.25)
        #expect(track.value(1, 0) == nil)
        #expect(track.segmentStarts == [1])
        #expect(track.otherElements == 1)
    }

    @Test func brokenAndHostileFilesAreRefusedWithAReason() {
        func reason(_ text: String) -> String? {
            do {
                _ = try Self.parse(text)
                return nil
            } catch {
                return (error as? GPXTrackParser.Failure)?.reason ?? "\(error)"
            }
        }
        #expect(reason("<kml/>") == "it is not a GPX file (its root is not <gpx>)")
        #expect(
            reason("<gpx><trk><trkseg><trkpt lat=\"north\" lon=\"1\"/></trkseg></trk></gpx>")
                == "point 1 has a lat that is not a number")
        #expect(reason("<gpx><trk>")?.contains("not well-formed") == true)
        let long = String(repeating: "1", count: 300)
        #expect(
            reason("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><ele>\(long)</ele></trkpt></trkseg></trk></gpx>")
                == "a point holds a field longer than 256 bytes")
        #expect(reason("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx>&a;</gpx>")?.contains("entity") == true)
    }
}

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

    /// Why `text` is refused, or nil when it is read.
    static func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error as? GPXTrackParser.Failure)?.reason ?? "\(error)"
        }
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
        #expect(Self.reason("<kml/>") == "it is not a GPX file (its root is not <gpx>)")
        #expect(
            Self.reason("<gpx><trk><trkseg><trkpt lat=\"north\" lon=\"1\"/></trkseg></trk></gpx>")
                == "point 1 has a lat that is not a number")
        #expect(Self.reason("<gpx><trk>")?.contains("not well-formed") == true)
        let long = String(repeating: "1", count: 300)
        #expect(
            Self.reason("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><ele>\(long)</ele></trkpt></trkseg></trk></gpx>")
                == "a point holds a field longer than 256 bytes")
        #expect(Self.reason("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx>&a;</gpx>")?.contains("entity") == true)
    }

    /// As any GPX reader reads a file: elements and attributes of GPX's namespace only, points only
    /// in `<trk>/<trkseg>`, never in `<extensions>`, and a field given twice refused rather than
    /// the last one taken.
    @Test func onlyGPXsOwnElementsAndAttributesAreRead() throws {
        let open = #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:f="urn:f"><trk><trkseg>"#
        let close = "</trkseg></trk></gpx>"
        let point =
            #"<trkpt lat="-0.5" lon="1"><ele>4</ele><time>2000-01-01T00:00:00Z</time>"#
            + "<extensions><speed>1.5</speed></extensions></trkpt>"
        let plain = try Self.parse(open + point + close)

        // Another namespace's attribute, element or extension changes nothing read.
        let foreign = try Self.parse(
            open + #"<trkpt lat="-0.5" lon="1" f:lat="0.000051"><ele>4</ele><f:ele>9</f:ele>"#
                + "<time>2000-01-01T00:00:00Z</time><extensions><speed>1.5</speed><f:speed>7</f:speed>"
                + "<f:ele>8</f:ele></extensions></trkpt>" + close)
        #expect(foreign.point(0) == plain.point(0))
        #expect(try #require(foreign.value(0, 1)) == -500_000_000)

        // A point moved into <extensions>, a route or the metadata is not a point of the track.
        let moved = try Self.parse(
            open + point + "<extensions>" + point.replacingOccurrences(of: "-0.5", with: "2") + "</extensions>"
                + close.replacingOccurrences(of: "</trk>", with: "</trk><rte>\(point)</rte>"))
        #expect(moved.count == 1)
        #expect(moved.point(0) == plain.point(0))

        // Elevation and time belong to the point, the rest to its extensions.
        let misplaced = try Self.parse(
            open + #"<trkpt lat="1" lon="1"><speed>3</speed><extensions><ele>5</ele></extensions></trkpt>"# + close)
        #expect(misplaced.value(0, 3) == nil)
        #expect(misplaced.value(0, 4) == nil)

        #expect(
            Self.reason(open + #"<trkpt lat="1" lon="1"><ele>4</ele><ele>5</ele></trkpt>"# + close)
                == "point 1 has two eles"
        )
        #expect(
            Self.reason(#"<gpx xmlns="urn:other"><trk><trkseg>"# + point + close)
                == "it is not a GPX file (its <gpx> is not in GPX's namespace)")
        // A file in no namespace reads as one in GPX's (older writers).
        #expect(try Self.parse("<gpx><trk><trkseg>" + point + close).point(0) == plain.point(0))
    }
}

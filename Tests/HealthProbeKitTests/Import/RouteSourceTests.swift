import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A route's bytes, less the export's own time, name the content read from them: a re-check
/// recognises an unchanged route without reading its track, and reads every route whose bytes
/// changed.
@Suite("Routes known by their bytes")
struct RouteSourceTests {
    typealias Fixture = ReferencedFileFixture

    static func content(_ text: String, held: HeldFileAnswers = .nothing) -> FileContent? {
        let bytes = Array(text.utf8)
        return ReferencedFileReader.content(.route, path: "/workout-routes/a.gpx", held: held) { consume in
            // In small pieces, as a zip entry streams: the export's time lies across two.
            for start in stride(from: 0, to: bytes.count, by: 100) {
                try bytes[start..<min(start + 100, bytes.count)].withUnsafeBytes { try consume($0) }
            }
        }.0
    }

    @Test func aRouteWhoseBytesTheArchiveKnowsIsNotReadAgain() throws {
        let first = try #require(Self.content(Fixture.gpx(points: 120)))
        let source = try #require(first.source)
        #expect(first.items == 120)

        // The archive says those bytes gave a content of its own: that is what comes back, unread.
        let store = try ArchiveTestSupport().openArchive()
        var stand = FileContent(Array("2000-01-01 seven points of Test User's".utf8), items: 7)
        stand.source = source
        try store.writer.write { db in try ReferencedFiles.store(stand, kind: .route, db) }
        let held = try store.writer.write { db in try HeldFiles.asked(of: store, writing: db) }
        try held.asking { held in
            let again = try #require(
                Self.content(Fixture.gpx(points: 120, exportedAt: "2000-02-01T09:30:00Z"), held: held))
            #expect(again.digest == stand.digest && again.items == 7 && again.source == source)
            #expect(!again.hasBytes)

            // Exported in another time zone: the name says another local time, the track is the same.
            let renamed = Fixture.gpx(points: 120).replacingOccurrences(
                of: "Route 2000-01-01 8:00am", with: "Route 2000-01-01 9:00am")
            #expect(Self.content(renamed, held: held)?.digest == stand.digest)

            // A point moved, or a point fewer: new bytes, read as a track.
            let moved = Fixture.gpx(points: 120).replacingOccurrences(
                of: "lat=\"0.001000\"", with: "lat=\"0.001001\"")
            let changed = try #require(Self.content(moved, held: held))
            #expect(changed.digest != first.digest && changed.digest != stand.digest && changed.items == 120)
            let shorter = try #require(Self.content(Fixture.gpx(points: 119), held: held))
            #expect(shorter.items == 119 && shorter.source != source)
        }
    }

    @Test func aRecheckKeepsWhatItDidNotReadAndReadsWhatChanged() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let kept = "/workout-routes/route_2000-01-01_8.00am.gpx"
        let cut = "/workout-routes/route_2000-01-02_8.00am.gpx"
        let workouts = [
            Fixture.workout(route: kept), Fixture.workout(route: cut, start: "2000-01-02 08:00:00 +0000"),
        ]
        let first = try Fixture.folder(
            MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: workouts),
            files: [kept: Fixture.gpx(points: 300), cut: Fixture.gpx(points: 200)], in: support.folder,
            named: "first")
        _ = try support.check(first, in: store)
        #expect(try ArchiveInspection.scalar(support.archivePath, "SELECT COUNT(*) FROM fileSource") == 2)

        // Exported again two days later: every route has another time; the second lost points.
        let later = "2000-01-05T12:00:00Z"
        let second = try Fixture.folder(
            MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: workouts),
            files: [
                kept: Fixture.gpx(points: 300, exportedAt: later), cut: Fixture.gpx(points: 150, exportedAt: later),
            ],
            in: support.folder, named: "second")
        let result = try support.check(second, in: store)
        let changed = try #require(result.audit.anomalies.only(.routeChanged).first)
        #expect(result.audit.anomalies.count == 1)
        #expect(changed.evidence["pointsLost"] == "50")
        #expect(try ArchiveInspection.scalar(support.archivePath, "SELECT COUNT(*) FROM fileSource") == 3)
        let files = try ArchiveInspection.strings(
            support.archivePath,
            "SELECT captureId || ' ' || path || ' ' || items || ' ' || digest FROM referencedFile ORDER BY captureId, path"
        )
        #expect(files.count == 4)
        #expect(files[0].dropFirst(2) == files[2].dropFirst(2), "the unchanged route's content, kept unread")
        #expect(files[3].contains(" 150 "))

        // The rebuild gives back the unread route from the content the archive holds.
        let rebuilt = try ZipContents(path: try support.runExport(store, .appleHealth).path)
        #expect(try rebuilt.text("apple_health_export" + kept).components(separatedBy: "<trkpt").count == 301)
    }

    /// Content goes with the last capture holding it, and which bytes gave it with it; erasing
    /// the audit data erases both, stray files' content too.
    @Test func whatBytesGaveGoesWithTheContent() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let named = "/workout-routes/route_2000-01-01_8.00am.gpx"
        let stray = "/workout-routes/route_1999-12-30_7.10am.gpx"
        let export = try Fixture.folder(
            MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Fixture.workout(route: named)]),
            files: [named: Fixture.gpx(points: 60), stray: Fixture.gpx(points: 30)], in: support.folder,
            named: "first")
        let capture = try support.check(export, in: store).capture.id
        #expect(try ArchiveInspection.scalar(support.archivePath, "SELECT COUNT(*) FROM fileSource") == 2)
        try store.writer.write { db in try ArchiveStore.undoCapture(capture, db) }
        for table in ["fileSource", "fileContent", "strayFile", "referencedFile"] {
            #expect(try ArchiveInspection.scalar(support.archivePath, "SELECT COUNT(*) FROM \(table)") == 0, "\(table)")
        }

        _ = try support.check(export, in: store)
        try store.deleteAllAuditData()
        for table in ["fileSource", "fileContent", "strayFile", "capture"] {
            #expect(try ArchiveInspection.scalar(support.archivePath, "SELECT COUNT(*) FROM \(table)") == 0, "\(table)")
        }
    }
}

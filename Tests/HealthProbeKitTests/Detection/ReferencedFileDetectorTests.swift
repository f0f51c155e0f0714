import AppleHealthExport
import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Clinical documents and workout routes are kept with their records and watched: a file that
/// vanished, lost points or changed is an anomaly; one only written again is no change.
@Suite("Detectors: clinical documents and routes")
struct ReferencedFileDetectorTests {
    typealias Fixture = ReferencedFileFixture

    static let records = [
        Fixture.clinicalRecord(file: "Observation-A.json", identifier: "A"),
        Fixture.clinicalRecord(file: "Observation-B.json", identifier: "B"),
        Fixture.clinicalRecord(file: "Observation-C.json", identifier: "C"),
    ]

    @Test func documentsAreKeptAndTheirLossOrAmendmentIsReported() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: Self.records)
        let first = try Fixture.folder(
            export,
            files: [
                "/clinical-records/Observation-A.json": Fixture.observation(id: "A", value: 90),
                "/clinical-records/Observation-B.json": Fixture.observation(id: "B", value: 100),
                "/clinical-records/Observation-C.json": Fixture.observation(id: "C", value: 110),
            ], in: support.folder, named: "first")
        let checked = try support.check(first, in: store)
        #expect(checked.audit.anomalies.isEmpty)

        // A written again in another layout (no change); B amended; C's file gone, its record kept.
        let later = MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: Self.records)
        let second = try Fixture.folder(
            later,
            files: [
                "/clinical-records/Observation-A.json": Fixture.observation(id: "A", value: 90, compact: true),
                "/clinical-records/Observation-B.json": Fixture.observation(id: "B", value: 140),
            ], in: support.folder, named: "second")
        let result = try support.check(second, in: store)
        #expect(result.capture.gone == 0)
        let types = result.audit.anomalies.map(\.type).sorted { $0.rawValue < $1.rawValue }
        #expect(types == [.documentChanged, .documentMissing])
        let changed = try #require(result.audit.anomalies.only(.documentChanged).first)
        #expect(changed.recordCount == 1)
        #expect(changed.severity == .warning)
        #expect(changed.evidence["changedKeys"] == "valueQuantity.value")
        #expect(changed.evidence["files"] == "/clinical-records/Observation-B.json")
        #expect(!changed.summary.contains("140") && !changed.evidence.values.contains { $0.contains("140") })
        let missing = try #require(result.audit.anomalies.only(.documentMissing).first)
        #expect(missing.recordCount == 1)
        #expect(missing.evidence["notInExport"] == "1")
        #expect(missing.evidence["exportHeldNoDocuments"] == "false")
        #expect(missing.summary.contains("lost its document"))

        // The vanished document is still in the archive, as it was.
        let kept = try store.writer.read { db -> [UInt8]? in
            let digest = try String.fetchOne(
                db, sql: "SELECT digest FROM referencedFile WHERE path = ? AND digest IS NOT NULL",
                arguments: ["/clinical-records/Observation-C.json"])
            return try digest.flatMap { try ReferencedFiles.content(digest: $0, db) }
        }
        #expect(kept.map { String(decoding: $0, as: UTF8.self) } == Fixture.observation(id: "C", value: 110))
    }

    @Test func aDocumentThatIsNotJSONIsKeptAsBytesAndSaidToBeUnreadable() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Self.records[0]])
        let folder = try Fixture.folder(
            export, files: ["/clinical-records/Observation-A.json": "not json {"], in: support.folder, named: "one")
        _ = try support.check(folder, in: store)
        let row = try #require(
            try store.writer.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT digest, problem, items FROM referencedFile WHERE kind = 'clinicalDocument'")
            })
        #expect(row["problem"] as String? == "it is not JSON; kept as it was")
        #expect(row["items"] as Int? == 10)
        #expect(row["digest"] as String? != nil)
    }

    @Test func aRouteWrittenAgainIsNoChangeAndOneThatLostPointsIsReported() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let workout = Fixture.workout(route: "/workout-routes/route_2000-01-01_8.30am.gpx")
        let first = try Fixture.folder(
            MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [workout]),
            files: ["/workout-routes/route_2000-01-01_8.30am.gpx": Fixture.gpx(points: 600)], in: support.folder,
            named: "first")
        _ = try support.check(first, in: store)

        // The same track, exported two days later: another time in <metadata>, same points.
        let again = try Fixture.folder(
            MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: [workout]),
            files: [
                "/workout-routes/route_2000-01-01_8.30am.gpx": Fixture.gpx(
                    points: 600, exportedAt: "2000-01-05T12:00:00Z")
            ], in: support.folder, named: "again")
        let unchanged = try support.check(again, in: store)
        #expect(unchanged.audit.anomalies.isEmpty, "\(unchanged.audit.anomalies.summaries)")

        // Then 40 % of the points vanish: 08:03:00–08:06:59.
        let damaged = try Fixture.folder(
            MiniExport(exportDate: "2000-01-07 12:00:00 +0000", elements: [workout]),
            files: [
                "/workout-routes/route_2000-01-01_8.30am.gpx": Fixture.gpx(points: 600) { !(180..<420).contains($0) }
            ], in: support.folder, named: "damaged")
        let result = try support.check(damaged, in: store)
        let route = try #require(result.audit.anomalies.only(.routeChanged).first)
        #expect(result.audit.anomalies.count == 1)
        #expect(route.sampleType == HealthRecord.workoutType)
        #expect(route.severity == .warning)
        #expect(route.evidence["pointsBefore"] == "600")
        #expect(route.evidence["pointsAfter"] == "360")
        #expect(route.evidence["pointsLost"] == "240")
        #expect(route.evidence["routesShortened"] == "1")
        // 240 points a second apart: 3 min 59 s between the first and the last, to the minute 4.
        #expect(route.evidence["timeLost"] == "4 minutes")
        #expect(route.evidence["lostStretches"] == "2000-01-01T08:03:00Z – 2000-01-01T08:06:59Z (240 points)")
        #expect(route.summary.contains("240 of 600 points (40.0%) gone"))

        // And then the file itself is gone while the workout stays.
        let gone = try Fixture.folder(
            MiniExport(exportDate: "2000-01-09 12:00:00 +0000", elements: [workout]), files: [:], in: support.folder,
            named: "gone")
        let lost = try #require(try support.check(gone, in: store).audit.anomalies.only(.routeChanged).first)
        #expect(lost.evidence["routesGone"] == "1")
        #expect(lost.evidence["exportHeldNoRoutes"] == "true")
    }
}

extension ReferencedFileDetectorTests {
    /// The same points written another way — a trailing zero, the track split in two — are no
    /// change; a file the reader cannot read is said to be unreadable, never a loss of its points.
    @Test func aRouteReadAnotherWayIsNoChangeAndOneUnreadableIsNoLoss() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let path = "/workout-routes/route_2000-01-01_8.30am.gpx"
        let workout = Fixture.workout(route: path)
        let original = Fixture.gpx(points: 90)
        func check(_ gpx: String, day: Int) throws -> [Anomaly] {
            let folder = try Fixture.folder(
                MiniExport(exportDate: "2000-01-\(String(format: "%02d", day)) 12:00:00 +0000", elements: [workout]),
                files: [path: gpx], in: support.folder, named: "day\(day)")
            return try support.check(folder, in: store).audit.anomalies
        }
        #expect(try check(original, day: 3).isEmpty)
        let latitude = try #require(original.range(of: #"lat="0.001000""#))
        let trailingZero = original.replacingCharacters(in: latitude, with: #"lat="0.0010000""#)
        #expect(try check(trailingZero, day: 5).isEmpty, "one latitude written with a trailing zero")
        let split = original.replacingOccurrences(
            of: "\n<trkpt lon=\"0.002945\"", with: "</trkseg><trkseg>\n<trkpt lon=\"0.002945\"")
        #expect(split.contains("</trkseg><trkseg>"))
        #expect(try check(split, day: 7).isEmpty, "the track split in two segments, every point kept")

        let tenDecimals = original.replacingCharacters(in: latitude, with: #"lat="0.0010000001""#)
        let unreadable = try check(tenDecimals, day: 9)
        let route = try #require(unreadable.only(.routeChanged).first, "\(unreadable.summaries)")
        #expect(route.evidence["routesUnreadable"] == "1")
        #expect(route.evidence["pointsLost"] == "0")
        #expect(route.evidence["routesGone"] == "0")
        #expect(route.evidence["unreadableBecause"] == "point 1 has a lat that is not a number")
        #expect(
            route.summary.contains(
                "could not be read (point 1 has a lat that is not a number), so its points were "
                    + "not compared"), "\(route.summary)")
        #expect(!route.summary.contains("0.0010000001"))
        #expect(try check(original, day: 11).isEmpty, "read again: nothing was known to be lost")
    }
}

/// A route file no workout refers to — a real 2023 export held two — is kept, given back by the
/// rebuild, and watched: deleted from the next export, it is reported.
@Suite("Detectors: files no record refers to")
struct StrayFileTests {
    typealias Fixture = ReferencedFileFixture

    @Test func aRouteNoWorkoutNamesIsKeptRebuiltAndMissedWhenGone() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let named = "/workout-routes/route_2000-01-01_8.30am.gpx"
        let stray = "/workout-routes/route_1999-12-30_7.10am.gpx"
        let workout = Fixture.workout(route: named)
        let first = try Fixture.folder(
            MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [workout]),
            files: [named: Fixture.gpx(points: 300), stray: Fixture.gpx(points: 120)], in: support.folder,
            named: "first")
        #expect(try support.check(first, in: store).audit.anomalies.isEmpty)
        #expect(try ArchiveInspection.strings(support.archivePath, "SELECT path FROM strayFile") == [stray])

        // The rebuild gives it back under its name, with its points.
        let rebuilt = try ZipContents(path: try support.runExport(store, .appleHealth).path)
        #expect(rebuilt.names.contains("apple_health_export" + stray))
        #expect(try rebuilt.text("apple_health_export" + stray).components(separatedBy: "<trkpt").count == 121)

        // Written again under another name: no change.
        let renamed = try Fixture.folder(
            MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: [workout]),
            files: [
                named: Fixture.gpx(points: 300),
                "/workout-routes/route_1999-12-30_7.10am_2.gpx": Fixture.gpx(points: 120),
            ],
            in: support.folder, named: "renamed")
        let unchanged = try support.check(renamed, in: store)
        #expect(unchanged.audit.anomalies.isEmpty, "\(unchanged.audit.anomalies.summaries)")

        // Then deleted: nothing refers to it, and still it is missed.
        let gone = try Fixture.folder(
            MiniExport(exportDate: "2000-01-07 12:00:00 +0000", elements: [workout]),
            files: [named: Fixture.gpx(points: 300)], in: support.folder, named: "gone")
        let result = try support.check(gone, in: store)
        let lost = try #require(result.audit.anomalies.only(.routeChanged).first)
        #expect(result.audit.anomalies.count == 1)
        #expect(lost.severity == .warning)
        #expect(lost.evidence["files"] == "route_1999-12-30_7.10am_2.gpx")
        #expect(lost.evidence["points"] == "120")
        #expect(lost.summary.hasPrefix("1 workout route file no record refers to is gone"))
    }
}

extension StrayFileTests {
    static func summary(_ day: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>Health Data Export</title>\
        <effectiveTime value="\(day)"/><recordTarget><patientRole><patient><name>Test User</name></patient>\
        </patientRole></recordTarget></ClinicalDocument>
        """
    }

    /// `export_cda.xml`, the clinical summary beside the main XML: kept, given back, and missed
    /// when an export comes without it (it is written anew by every export: a new one is no change).
    @Test func theClinicalSummaryIsKeptRebuiltAndMissedWhenGone() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let workout = Fixture.workout(route: "/workout-routes/route_2000-01-01_8.30am.gpx")
        let route = ["/workout-routes/route_2000-01-01_8.30am.gpx": Fixture.gpx(points: 60)]
        let first = try Fixture.folder(
            MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [workout]),
            files: route.merging(["/export_cda.xml": Self.summary("20000103")]) { $1 }, in: support.folder,
            named: "first")
        #expect(try support.check(first, in: store).audit.anomalies.isEmpty)
        let rebuilt = try ZipContents(path: try support.runExport(store, .appleHealth).path)
        #expect(try rebuilt.text("apple_health_export/export_cda.xml") == Self.summary("20000103"))

        let renewed = try Fixture.folder(
            MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: [workout]),
            files: route.merging(["/export_cda.xml": Self.summary("20000105")]) { $1 }, in: support.folder,
            named: "renewed")
        #expect(try support.check(renewed, in: store).audit.anomalies.isEmpty)

        let without = try Fixture.folder(
            MiniExport(exportDate: "2000-01-07 12:00:00 +0000", elements: [workout]), files: route,
            in: support.folder, named: "without")
        let missing = try #require(try support.check(without, in: store).audit.anomalies.only(.documentMissing).first)
        #expect(missing.summary.hasPrefix("1 clinical summary no record refers to is gone (export_cda.xml)"))
    }
}

@Suite("Codings of voltages and tracks")
struct CodingTests {
    @Test func aTrackComesBackFromItsCodingExactly() throws {
        let parser = GPXTrackParser(path: "/workout-routes/a.gpx")
        try Array(ReferencedFileFixture.gpx(points: 300).utf8).withUnsafeBytes { try parser.feed($0) }
        let track = try parser.finish()
        let encoded = TrackCoding.encode(track)
        #expect(TrackCoding.decode(encoded) == track)
        #expect(TrackCoding.decode(Array(encoded.dropLast())) == nil)
        #expect(encoded.count < 300 * 20)
        let content = FileContent(encoded, items: track.count)
        #expect(content.inflated() == encoded)
    }
}

/// A Health database carries no export's files: a backup checked between two exports neither
/// reports them lost nor hides what the second export lost.
@Suite("Detectors: files across a backup")
struct FilesAcrossABackupTests {
    typealias Fixture = ReferencedFileFixture

    @Test func aRouteLostBetweenTwoExportsIsFoundThoughABackupCameBetween() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let route = "/workout-routes/route_2000-01-01_8.30am.gpx"
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Fixture.workout(route: route)])
        let first = try Fixture.folder(
            export, files: [route: Fixture.gpx(points: 90)], in: support.folder, named: "first")
        _ = try support.check(first, in: store)

        let health = support.folder.appendingPathComponent("backup")
        try PairedHealthData.baseline(days: 2).writeDatabase(to: health)
        let backup = try ArchiveCheck.open(health.path, archivePath: support.archivePath).run(into: store)
        #expect(backup.anomalies.allSatisfy { $0.type != .routeChanged })
        #expect(backup.notes.contains { $0.hasPrefix("ECG voltages, workout routes and clinical documents") })

        let later = MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: [Fixture.workout(route: route)])
        let second = try Fixture.folder(
            later, files: [route: Fixture.gpx(points: 90, keep: { $0 < 50 })], in: support.folder, named: "second")
        let result = try support.check(second, in: store)
        let changed = try #require(result.audit.anomalies.only(.routeChanged).first)
        #expect(changed.recordCount == 1)
        #expect(changed.evidence["previousCaptureId"] == "1")
    }
}

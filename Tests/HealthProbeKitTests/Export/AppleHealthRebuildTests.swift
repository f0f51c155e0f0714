import AppleHealthExport
import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport
import Testing
import ZIPFoundation

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// `--format apple-health` gives back an export as the capture held it: checked again, it is the
/// same capture, record for record and file for file.
@Suite("Export: an Apple export rebuilt")
struct AppleHealthRebuildTests {
    typealias Fixture = ReferencedFileFixture

    /// Exports of every shape the archive reads: real ones (HRV beats, correlations, workouts
    /// with events and statistics, a route folder, an export without `ExportDate` whose dates
    /// are at -0800), a generated one with routes and ECG recordings, and clinical documents.
    static func sources(in support: ArchiveTestSupport) throws -> [URL] {
        var options = SyntheticExportOptions(elementCount: 1_500, seed: 11, utcOffsetSeconds: 3_600)
        options.routesEvery = 2
        options.electrocardiograms = 2
        let generated = try support.generate("generated.zip", options)
        let clinical = try Fixture.folder(
            MiniExport(
                exportDate: "2000-01-03 12:00:00 +0000",
                elements: [
                    Fixture.clinicalRecord(file: "Observation-A.json", identifier: "A"),
                    Fixture.clinicalRecord(file: "Observation-B.json", identifier: "B"),
                ]),
            files: ["/clinical-records/Observation-A.json": Fixture.observation(id: "A", value: 90)],
            in: support.folder, named: "clinical")
        return [
            FixtureFiles.url("tdda/export6s3sample.xml"), FixtureFiles.url("opendroid/sampleexport-2.xml"),
            FixtureFiles.url("opendroid/audio_exposure.xml"), FixtureFiles.url("alxdrcirilo/export.zip"),
            FixtureFiles.url("dogsheep/unzipped/apple_health_export"), generated, clinical,
        ]
    }

    @Test func aRebuildIsTheSameCaptureRecordForRecordAndFileForFile() throws {
        let support = try ArchiveTestSupport()
        for (index, source) in try Self.sources(in: support).enumerated() {
            let originalPath = support.folder.appendingPathComponent("original-\(index).sqlite").path
            let original = try ArchiveStore.open(at: originalPath)
            let first = try support.check(source, in: original)
            let result = try support.runExport(original, .appleHealth, name: "rebuilt-\(index).zip")
            #expect(result.records == first.capture.records, "\(source.lastPathComponent)")

            // Into an empty archive: the same records, by their strictest fingerprint, and the
            // same files under the same names with the same content.
            let fresh = try ArchiveStore.open(
                at: support.folder.appendingPathComponent("fresh-\(index).sqlite").path)
            _ = try support.check(URL(fileURLWithPath: result.path), in: fresh)
            #expect(try Self.fingerprints(fresh) == Self.fingerprints(original), "\(source.lastPathComponent)")
            #expect(try Self.files(fresh) == Self.files(original), "\(source.lastPathComponent)")

            // Into the archive it came from: nothing new, nothing gone, nothing to report.
            let again = try support.check(URL(fileURLWithPath: result.path), in: original)
            #expect(again.capture.new == 0 && again.capture.gone == 0, "\(source.lastPathComponent)")
            #expect(again.audit.anomalies.isEmpty, "\(source.lastPathComponent)")
        }
    }

    @Test func theRebuildKeepsTheCapturesOffsetAndNamesAndSaysWhatItCouldNotGiveBack() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let sources = try Self.sources(in: support)
        _ = try support.check(sources[5], in: store)
        let result = try support.runExport(store, .appleHealth)
        let archive = try ZipContents(path: result.path)
        let xml = try archive.text("apple_health_export/export.xml")
        #expect(xml.contains("<ExportDate value=\"2000-01-"))
        #expect(xml.contains(" +0100\"/>"))
        // Every date at the offset the export was written at (its metadata dates as written).
        let starts = xml.components(separatedBy: "startDate=\"").dropFirst()
        #expect(starts.count > 1_000)
        #expect(starts.allSatisfy { $0.prefix(25).hasSuffix(" +0100") })
        // The person was never kept: every characteristic says it is not set.
        #expect(xml.contains("HKCharacteristicTypeIdentifierDateOfBirth=\"\""))
        let routes = archive.names.filter { $0.hasPrefix("apple_health_export/workout-routes/") }
        let ecgs = archive.names.filter { $0.hasPrefix("apple_health_export/electrocardiograms/") }
        #expect(ecgs.count == 2)
        #expect(!routes.isEmpty)
        #expect(result.files == AppleHealthFileCounts(written: routes.count + 2, notInCapture: 0, notKept: 0))
        // Each route is referred to by the path its file has in the zip.
        for route in routes {
            #expect(xml.contains("<FileReference path=\"/\(route.dropFirst("apple_health_export/".count))\"/>"))
        }
        // An ECG keeps the layout readers skip by line count, and never the person's lines.
        let csv = try archive.text(ecgs[0]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(csv[0] == "Name," && csv[1] == "Date of Birth,")
        #expect(csv[2].hasPrefix("Recorded Date,2000-01-") && csv[2].hasSuffix(" +0100"))
        #expect(csv.contains("Lead,Lead I") && csv.contains("Unit,µV"))

        // A clinical record whose document its export did not hold is referred to as it was.
        let clinical = try ArchiveStore.open(at: support.folder.appendingPathComponent("clinical.sqlite").path)
        _ = try support.check(sources[6], in: clinical)
        let rebuilt = try support.runExport(clinical, .appleHealth, name: "clinical.zip")
        #expect(rebuilt.files == AppleHealthFileCounts(written: 1, notInCapture: 1, notKept: 0))
        let documents = try ZipContents(path: rebuilt.path)
        #expect(documents.names.contains("apple_health_export/clinical-records/Observation-A.json"))
        #expect(
            try documents.text("apple_health_export/clinical-records/Observation-A.json")
                == Fixture.observation(id: "A", value: 90))
        #expect(try documents.text("apple_health_export/export.xml").contains("/clinical-records/Observation-B.json"))
    }

    /// Apple writes each date at the offset its zone has then: a Berlin export's dates before the
    /// spring change read `+0100`, after it `+0200`. The rebuild writes every date as the export
    /// did, not all at the export's own offset.
    @Test func eachDateKeepsTheOffsetItsExportWroteItAt() throws {
        let support = try ArchiveTestSupport()
        let winter = (20...25).map { "2000-03-\($0) 09:00:00 +0100" }
        let summer = (26...31).map { "2000-03-\($0) 09:00:00 +0200" } + ["2000-04-02 23:30:00 +0200"]
        let export = MiniExport(
            exportDate: "2000-04-03 12:00:00 +0200",
            elements: (winter + summer).map { MiniExport.record(start: $0, created: $0) }
                + [
                    MiniExport.record(
                        "HKQuantityTypeIdentifierStepCount", value: "120", unit: "count", start: winter[0],
                        end: summer[0])
                ])
        let source = try export.write(to: support.folder, name: "berlin.xml")
        let store = try support.openArchive()
        _ = try support.check(source, in: store)
        let rebuilt = try ZipContents(path: try support.runExport(store, .appleHealth).path)
            .text("apple_health_export/export.xml")
        func dates(_ xml: String) -> [String] {
            ["creationDate", "startDate", "endDate"].flatMap { name in
                xml.components(separatedBy: "\(name)=\"").dropFirst().map { String($0.prefix(25)) }
            }.sorted()
        }
        #expect(dates(rebuilt) == dates(export.xml))
        #expect(rebuilt.contains("<ExportDate value=\"2000-04-03 12:00:00 +0200\"/>"))
        #expect(rebuilt.contains("startDate=\"2000-03-25 09:00:00 +0100\""))
        #expect(rebuilt.contains("startDate=\"2000-03-26 09:00:00 +0200\""))
    }

    @Test func anEarlierCaptureIsRebuiltAsItWasAndGoneRecordsComeBackOnRequest() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        var before = SyntheticExportOptions(elementCount: 800, seed: 5)
        before.electrocardiograms = 3
        var after = before
        after.electrocardiograms = 1
        after.incidents = [SyntheticIncident(.omit, items: 100..<160)]
        after.exportDate = 946_684_800 + 20 * 86_400
        _ = try support.check(support.generate("before.zip", before), in: store)
        let second = try support.check(support.generate("after.zip", after), in: store)
        #expect(second.capture.gone > 0)

        func rebuiltRecords(_ selection: ExportSelection, _ name: String) throws -> (Int, Int) {
            let result = try support.runExport(store, .appleHealth, name: name, selection: selection)
            let fresh = try ArchiveStore.open(at: support.folder.appendingPathComponent("\(name).sqlite").path)
            let checked = try support.check(URL(fileURLWithPath: result.path), in: fresh)
            let ecgs = try ZipContents(path: result.path).names.filter { $0.contains("/electrocardiograms/") }
            return (checked.capture.records, ecgs.count)
        }
        let firstCapture = try #require(second.capture.previousCaptureId)
        let (asItWas, ecgsThen) = try rebuiltRecords(ExportSelection(asOfCapture: firstCapture), "then.zip")
        #expect(ecgsThen == 3)
        #expect(asItWas == second.capture.records + second.capture.gone - second.capture.new)
        let (now, ecgsNow) = try rebuiltRecords(ExportSelection(), "now.zip")
        #expect(now == second.capture.records)
        #expect(ecgsNow == 1)
        let (withGone, ecgsBack) = try rebuiltRecords(ExportSelection(includeGone: true), "back.zip")
        #expect(withGone == second.capture.records + second.capture.gone)
        #expect(ecgsBack == 3)
    }

    /// A gone workout and the one that took its place may name the same route file with other
    /// points: the rebuild gives each its own, the second under the name with `_2`.
    @Test func twoRoutesUnderOneNameAreBothGivenBackUnderTwo() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let path = "/workout-routes/route_2000-01-01_8.30am.gpx"
        func export(_ name: String, start: String, points: Int, day: Int) throws -> URL {
            try Fixture.folder(
                MiniExport(
                    exportDate: "2000-01-0\(day) 12:00:00 +0000", elements: [Fixture.workout(route: path, start: start)]
                ),
                files: [path: Fixture.gpx(points: points)], in: support.folder, named: name)
        }
        _ = try support.check(export("first", start: "2000-01-01 08:00:00 +0000", points: 300, day: 3), in: store)
        let second = try support.check(
            export("second", start: "2000-01-01 07:00:00 +0000", points: 100, day: 5), in: store)
        #expect(second.capture.gone == 1 && second.capture.new == 1)

        let result = try support.runExport(store, .appleHealth, selection: ExportSelection(includeGone: true))
        let zip = try ZipContents(path: result.path)
        let routes = zip.names.filter { $0.hasPrefix("apple_health_export/workout-routes/") }.sorted()
        #expect(
            routes == [
                "apple_health_export/workout-routes/route_2000-01-01_8.30am.gpx",
                "apple_health_export/workout-routes/route_2000-01-01_8.30am_2.gpx",
            ])
        let xml = try zip.text("apple_health_export/export.xml")
        for route in routes {
            let reference = "<FileReference path=\"/\(route.dropFirst("apple_health_export/".count))\"/>"
            #expect(xml.components(separatedBy: reference).count == 2, "\(route)")
        }
        let points = try routes.map { try zip.text($0).components(separatedBy: "<trkpt").count - 1 }
        #expect(points.sorted() == [100, 300])
        #expect(result.files == AppleHealthFileCounts(written: 2, notInCapture: 0, notKept: 0))
    }

    static func fingerprints(_ store: ArchiveStore) throws -> [String] {
        try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT kind || ' ' || hex(strictFingerprint) FROM record ORDER BY 1")
        }
    }

    static func files(_ store: ArchiveStore) throws -> [String] {
        try store.writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT kind || ' ' || path || ' ' || IFNULL(digest, '-') || ' ' || IFNULL(items, '-')
                    FROM referencedFile ORDER BY 1
                    """)
        }
    }
}

/// A zip's entries as any reader sees them, through ZIPFoundation.
struct ZipContents {
    let archive: Archive
    let names: [String]

    init(path: String) throws {
        archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        names = archive.map(\.path)
    }

    func text(_ name: String) throws -> String {
        let entry = try #require(archive[name])
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        return String(decoding: data, as: UTF8.self)
    }
}

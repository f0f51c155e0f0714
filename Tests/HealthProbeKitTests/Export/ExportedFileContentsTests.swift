import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Every format gives back what the files held: a route's points, an ECG recording's voltages
/// exactly, a clinical document's resource — as of any capture, gone records' too.
@Suite("Export: what the files held")
struct ExportedFileContentsTests {
    typealias Fixture = ReferencedFileFixture

    /// An export folder with a workout and its 90-point route, a clinical record and its
    /// document, and an ECG recording of 600 voltages.
    static func folder(_ support: ArchiveTestSupport, named name: String, withFiles: Bool = true) throws -> URL {
        let export = MiniExport(
            exportDate: "2000-01-03 12:00:00 +0000",
            elements: [
                Fixture.workout(route: "/workout-routes/route_2000-01-01_8.30am.gpx"),
                Fixture.clinicalRecord(file: "Observation-A.json", identifier: "A"),
            ])
        var ecg = ECGFixture()
        ecg.samples = 600
        var files = ["/clinical-records/Observation-A.json": Fixture.observation(id: "A", value: 90)]
        files["/workout-routes/route_2000-01-01_8.30am.gpx"] = Fixture.gpx(points: 90)
        if withFiles { files["/electrocardiograms/ecg_2000-01-01.csv"] = ecg.csv }
        return try Fixture.folder(export, files: files, in: support.folder, named: name)
    }

    static let voltages: [String] = {
        var ecg = ECGFixture()
        ecg.samples = 600
        return ecg.voltages
    }()

    @Test func jsonLinesAndCSVHoldThePointsTheVoltagesAndTheResource() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(try Self.folder(support, named: "one"), in: store)
        let lines = try support.jsonLines(store)
        try Self.expectContents(lines)

        let result = try support.runExport(store, .csv)
        let rows = CSVReader.rows(try String(contentsOfFile: result.path, encoding: .utf8))
        let header = rows[0]
        let column = try #require(header.firstIndex(of: "files"))
        let kind = try #require(header.firstIndex(of: "kind"))
        let records: [[String: Any]] = rows.dropFirst().map { row in
            var record: [String: Any] = ["kind": row[kind]]
            if !row[column].isEmpty {
                record["files"] = try? JSONSerialization.jsonObject(with: Data(row[column].utf8))
            }
            return record
        }
        try Self.expectContents(records)
    }

    static func expectContents(_ records: [[String: Any]]) throws {
        func files(_ kind: String) throws -> [String: Any] {
            let record = try #require(records.first { $0["kind"] as? String == kind })
            let files = try #require(record["files"] as? [[String: Any]])
            #expect(files.count == 1)
            return try #require(files.first)
        }
        let route = try files("workout")
        #expect(route["kind"] as? String == "route")
        #expect(route["items"] as? Int == 90)
        let track = try #require(route["track"] as? [[String: Any]])
        #expect(track.count == 90)
        #expect(track[0]["time"] as? String == "2000-01-01T08:00:00+00:00")
        #expect((track[1]["lat"] as? NSNumber)?.doubleValue == 0.001013)
        #expect((track[89]["vAcc"] as? NSNumber)?.doubleValue == 6)

        let ecg = try files("electrocardiogram")
        let voltages = try #require(ecg["voltages"] as? [NSNumber])
        #expect(voltages.count == 600)
        #expect(voltages.map { String(format: "%.3f", $0.doubleValue) } == Self.voltages)

        let document = try files("clinicalRecord")
        let resource = try #require(document["resource"] as? [String: Any])
        #expect(resource["id"] as? String == "A")
        #expect((resource["valueQuantity"] as? [String: Any])?["unit"] as? String == "mg/dL")
    }

    @Test func sqliteHoldsThemInTablesOfTheirOwn() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(try Self.folder(support, named: "one"), in: store)
        let result = try support.runExport(store, .sqlite)
        let queue = try DatabaseQueue(path: result.path)
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM routePoints") == 90)
            let last = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT time, latitude, verticalAccuracy FROM routePoints WHERE position = 89"))
            #expect(last["time"] as String == "2000-01-01T08:01:29+00:00")
            #expect(last["verticalAccuracy"] as Double == 6)
            let voltages = try Double.fetchAll(
                db, sql: "SELECT value FROM electrocardiograms, json_each(voltages) ORDER BY key")
            #expect(voltages.map { String(format: "%.3f", $0) } == Self.voltages)
            #expect(try Int.fetchOne(db, sql: "SELECT voltageCount FROM electrocardiograms") == 600)
            #expect(
                try String.fetchOne(db, sql: "SELECT json_extract(resource, '$.id') FROM clinicalDocuments") == "A")
            // samples.files says which files a record has, without their content.
            let files = try #require(
                try String.fetchOne(db, sql: "SELECT files FROM samples WHERE kind = 'electrocardiogram'"))
            #expect(files.contains("\"items\":600") && !files.contains("voltages"))
        }
    }

    @Test func aGoneRecordingComesBackWithItsVoltages() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(try Self.folder(support, named: "one"), in: store)
        let later = try support.check(try Self.folder(support, named: "two", withFiles: false), in: store)
        #expect(later.capture.gone == 1)
        #expect(try support.jsonLines(store).allSatisfy { $0["kind"] as? String != "electrocardiogram" })
        let back = try support.jsonLines(store, selection: ExportSelection(includeGone: true))
        try Self.expectContents(back)
        let gone = try #require(back.first { $0["kind"] as? String == "electrocardiogram" })
        #expect(gone["status"] as? String == "gone")
        let asItWas = try support.jsonLines(store, selection: ExportSelection(asOfCapture: 1))
        try Self.expectContents(asItWas)
    }
}

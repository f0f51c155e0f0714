import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing
import ZIPFoundation

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// ECG recordings (`electrocardiograms/*.csv`) are records of their own: read from a folder or a
/// zip, their voltages kept exactly, the person's lines never, and a vanished one is a critical loss.
@Suite("Import: ECG recordings")
struct ElectrocardiogramImportTests {
    static let ecg = ElectrocardiogramElement.sampleType
    static let heartRate = MiniExport.record(start: "2000-01-01 08:00:00 +0000")

    @Test func theParserReadsTheHeaderAndExactVoltagesButNotThePerson() throws {
        var fixture = ECGFixture()
        fixture.samples = 600
        var parser = ElectrocardiogramParser(path: "/electrocardiograms/ecg_2000-01-01.csv")
        // Fed in small chunks, split wherever they fall.
        let bytes = Array(fixture.csv.utf8)
        for start in stride(from: 0, to: bytes.count, by: 7) {
            try bytes[start..<min(start + 7, bytes.count)].withUnsafeBytes { try parser.feed($0) }
        }
        let recording = try parser.finish()
        #expect(recording.recordedDate.secondsSince1970 == 946_718_080)
        #expect(recording.classification == "Sinus Rhythm")
        #expect(recording.device == "Watch5,4")
        #expect(recording.sampleRateHertz == 512)
        #expect(recording.lead == "Lead I")
        #expect(recording.unit == "µV")
        #expect(recording.otherHeader.isEmpty)
        #expect(recording.voltages.decimals == 3)
        #expect((0..<600).map(recording.voltages.text(at:)) == fixture.voltages)
        let decoded = VoltageCoding.decode(VoltageCoding.encode(recording.voltages))
        #expect(decoded == recording.voltages)

        // The person's lines are never kept, whatever language their keys are in.
        let french = fixture.csv.replacingOccurrences(of: "Name,", with: "Nom,")
            .replacingOccurrences(of: "Date of Birth,", with: "Date de naissance,")
        var frenchParser = ElectrocardiogramParser(path: "/electrocardiograms/ecg.csv")
        try Array(french.utf8).withUnsafeBytes { try frenchParser.feed($0) }
        let localized = try frenchParser.finish()
        #expect(localized.otherHeader.isEmpty)
        #expect(!"\(localized)".contains(ECGFixture.person))

        var comma = fixture
        comma.decimalComma = true
        var commaParser = ElectrocardiogramParser(path: "/electrocardiograms/ecg.csv")
        try Array(comma.csv.utf8).withUnsafeBytes { try commaParser.feed($0) }
        #expect(try commaParser.finish().voltages == recording.voltages)
    }

    @Test func malformedFilesAreRefusedWithTheirReason() throws {
        func reason(_ text: [UInt8]) -> String? {
            var parser = ElectrocardiogramParser(path: "/electrocardiograms/bad.csv")
            do {
                try text.withUnsafeBytes { try parser.feed($0) }
                _ = try parser.finish()
                return nil
            } catch {
                return error.reason
            }
        }
        let fixture = ECGFixture()
        #expect(reason(Array("Recorded Date,2000-01-01 09:14:40 +0000\nLead,Lead I\n".utf8)) == "it holds no voltages")
        #expect(reason(Array("Lead,Lead I\n\n1.0\n2.0\n".utf8)) == "it has no Recorded Date line")
        #expect(reason(Array((fixture.csv + "garbage\n").utf8)) == "line \(14 + 1_024 + 1) is not a voltage")
        #expect(reason([0x43, 0xFF, 0xFE, 0x2C, 0x0A]) == "line 1 is not UTF-8")
        #expect(reason(Array(repeating: UInt8(ascii: "a"), count: 5_000))?.contains("longer than 4096 bytes") == true)
    }

    @Test func recordingsAreArchivedOnceAndTheSameUnderAnotherNameOrOffset() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let first = ECGFixture()
        var second = ECGFixture(recorded: "2000-01-02 18:00:00 +0000", classification: "Inconclusive")
        second.seed = 3
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Self.heartRate])
        let one = try export.writeFolder(
            to: support.folder, name: "one",
            electrocardiograms: ["ecg_2000-01-01.csv": first.csv, "ecg_2000-01-02.csv": second.csv])
        let checked = try support.check(one, in: store)
        #expect(checked.capture.records == 3)
        #expect(checked.capture.elementCounts["Electrocardiogram"] == 2)
        #expect(checked.unreadable.isEmpty)

        let stored = try store.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.value, d.description AS device, r.startDate, f.path AS fileName, f.items, c.digest, c.content
                    FROM record r JOIN referencedFile f ON f.recordId = r.id JOIN fileContent c ON c.digest = f.digest
                    LEFT JOIN device d ON d.id = r.deviceId WHERE r.type = ? ORDER BY r.startDate
                    """, arguments: [Self.ecg])
        }
        #expect(stored.map { $0["value"] as String } == ["Sinus Rhythm", "Inconclusive"])
        #expect(stored.first?["device"] as String? == "hardware:Watch5,4")
        #expect(
            stored.map { $0["fileName"] as String } == [
                "/electrocardiograms/ecg_2000-01-01.csv", "/electrocardiograms/ecg_2000-01-02.csv",
            ])
        let content: Data = try #require(stored.first?["content"])
        let file = FileContent(digest: try #require(stored.first?["digest"]), compressed: Array(content), items: 0)
        let voltages = try #require(file.inflated().flatMap(VoltageCoding.decode))
        #expect(stored.first?["items"] as Int? == 1_024)
        #expect((0..<voltages.values.count).map(voltages.text(at:)) == first.voltages)
        // Stored compactly: well under a third of the CSV's bytes.
        #expect(content.count * 3 < first.csv.utf8.count)

        // The next export writes its dates at -0700 and names the files otherwise: nothing changed.
        let later = MiniExport(exportDate: "2000-01-04 05:00:00 -0700", elements: [Self.heartRate])
        let two = try later.writeFolder(
            to: support.folder, name: "two",
            electrocardiograms: [
                "ecg_2000-01-01 (1).csv": first.recordedAt(offset: "-0700", hours: -7).csv,
                "ecg_2000-01-02.csv": second.recordedAt(offset: "-0700", hours: -7).csv,
            ])
        let again = try support.check(two, in: store)
        #expect(again.capture.new == 0)
        #expect(again.capture.gone == 0)
        #expect(again.audit.anomalies.isEmpty)
        let attachments = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fileContent")
        }
        #expect(attachments == 2)

        // The person's name and date of birth are nowhere in the archive.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: support.archivePath))
        #expect(bytes.range(of: Data(ECGFixture.person.utf8)) == nil)
        #expect(bytes.range(of: Data("Jan 1, 2000".utf8)) == nil)
    }

    @Test func aVanishedRecordingIsACriticalLossAndABadFileIsUnreadableNotFatal() throws {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        let kept = ECGFixture()
        var lost = ECGFixture(recorded: "2000-01-02 18:00:00 +0000")
        lost.seed = 5
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Self.heartRate])
        _ = try support.check(
            try export.writeFolder(
                to: support.folder, name: "one", electrocardiograms: ["a.csv": kept.csv, "b.csv": lost.csv]),
            in: store)
        let later = MiniExport(exportDate: "2000-01-05 12:00:00 +0000", elements: [Self.heartRate])
        let result = try support.check(
            try later.writeFolder(
                to: support.folder, name: "two",
                electrocardiograms: ["a.csv": kept.csv, "broken.csv": "Recorded Date,2000-01-04 10:00:00 +0000\n"]),
            in: store)
        #expect(result.unreadable.map(\.reason) == ["it holds no voltages"])
        #expect(result.capture.unreadable == 1)
        let loss = try #require(result.audit.anomalies.only(.silentDeletion).first { $0.sampleType == Self.ecg })
        #expect(loss.recordCount == 1)
        #expect(loss.severity == .critical)
        #expect(loss.summary.hasPrefix("1 ECG record vanished"))
        #expect(loss.evidence["severityReason"]?.contains("cannot be measured again") == true)
    }

    @Test func aZippedExportsRecordingsAreReadWithoutExtractingIt() throws {
        let support = try ArchiveTestSupport()
        let zipURL = support.folder.appendingPathComponent("export.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        let export = MiniExport(exportDate: "2000-01-03 12:00:00 +0000", elements: [Self.heartRate])
        func add(_ path: String, _ text: String) throws {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
        try add("apple_health_export/export.xml", export.xml)
        try add("apple_health_export/electrocardiograms/ecg_2000-01-01.csv", ECGFixture().csv)
        try add("__MACOSX/apple_health_export/electrocardiograms/._ecg_2000-01-01.csv", "junk")
        let result = try support.check(zipURL, in: try support.openArchive())
        #expect(result.capture.elementCounts["Electrocardiogram"] == 1)
        #expect(result.unreadable.isEmpty)
    }
}

extension Error {
    fileprivate var reason: String { (self as? ElectrocardiogramParser.Failure)?.reason ?? "\(self)" }
}

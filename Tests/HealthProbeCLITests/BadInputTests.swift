import Foundation
import GRDB
import HealthProbeKit
import HealthProbeSimulation
import TestSupport
import Testing
import ZIPFoundation

/// Bad input: exit 65, one stderr line naming the file and the problem, nothing on stdout, and
/// the archive exactly as it was — but for one audit entry noting the refusal.
@Suite("Refusing bad input")
struct BadInputTests {
    enum Input: String, CaseIterable, CustomTestStringConvertible {
        case zeroByteZip, emptyZip, truncatedZip, truncatedXML, onlyClinicalDocument, foreignRoot
        case entityBomb, externalEntity, externalDTDIsNeverRead, missingPath, emptyFolder, garbage
        case compressionBomb, notAHealthDatabase, damagedHealthDatabase, unencryptedBackup
        case deepNesting, hugeValue, twoFilesOfOneName, overlappingEntries, spreadsheet

        var testDescription: String { rawValue }
    }

    @Test(arguments: Input.allCases)
    func refusedWithOneLineAndTheArchiveUnchanged(_ input: Input) throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let seeded = try CommandRunner.run([
            "check", FixtureFiles.url("dogsheep/export.xml").path, "--archive", archive,
        ])
        #expect(seeded.status == 0)
        let before = try ArchiveInspection.digest(archive, excluding: ["auditEntry"])
        let entriesBefore = try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM auditEntry")

        let (path, expectedWords) = try Self.make(input, in: folder)
        // A temporary folder of the case's own: whatever the check copies or decrypts goes there,
        // and nothing is left in it.
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let outcome = try CommandRunner.run(
            ["check", path, "--archive", archive], environment: ["TMPDIR": temporary.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains((path as NSString).lastPathComponent))
        #expect(outcome.stderr.lowercased().contains(expectedWords), "stderr: \(outcome.stderr)")
        #expect(try ArchiveInspection.digest(archive, excluding: ["auditEntry"]) == before)
        #expect(try ArchiveInspection.integrity(archive) == "ok")
        #expect(try ArchiveInspection.scalar(archive, "SELECT COUNT(*) FROM auditEntry") == entriesBefore + 1)
        #expect(
            try ArchiveInspection.scalar(
                archive,
                "SELECT COUNT(*) FROM auditEntry WHERE event = 'inputRefused' AND id = (SELECT MAX(id) FROM auditEntry)"
            )
                == 1)
    }

    @Test func badInputNeverCreatesAnArchive() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let archive = folder.appendingPathComponent("never.sqlite").path
        let outcome = try CommandRunner.run([
            "check", folder.appendingPathComponent("missing.zip").path, "--archive", archive,
        ])
        #expect(outcome.status == 65)
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    static func make(_ input: Input, in folder: URL) throws -> (String, String) {
        switch input {
        case .zeroByteZip:
            return (try FixtureFiles.write([], named: "export.zip", in: folder).path, "the file is empty")
        case .emptyZip:
            let bytes: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18)
            return (try FixtureFiles.write(bytes, named: "export.zip", in: folder).path, "no apple health export")
        case .truncatedZip:
            let whole = folder.appendingPathComponent("whole.zip")
            try SyntheticExportGenerator(options: .init(elementCount: 2_000)).writeZip(to: whole)
            let data = try Data(contentsOf: whole)
            return (
                try FixtureFiles.write([UInt8](data.prefix(data.count / 2)), named: "export.zip", in: folder).path,
                "zip"
            )
        case .truncatedXML:
            let text = FixtureFiles.export(FixtureFiles.stepRecord + "\n" + FixtureFiles.stepRecord)
            let cut = String(text.prefix(text.count - 60))
            return (try FixtureFiles.write(cut, named: "export.xml", in: folder).path, "line")
        case .onlyClinicalDocument:
            let cda = try FixtureFiles.write(
                "<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n", named: "export_cda.xml", in: folder)
            let zip = folder.appendingPathComponent("export.zip")
            let archive = try Archive(url: zip, accessMode: .create)
            try archive.addEntry(with: "apple_health_export/export_cda.xml", fileURL: cda)
            return (zip.path, "no apple health export")
        case .foreignRoot:
            return (
                try FixtureFiles.write(
                    "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"/>\n", named: "route.xml", in: folder
                ).path, "not an apple health export"
            )
        case .entityBomb:
            var declarations = "<!ENTITY lol0 \"lol\">\n"
            for level in 1..<10 {
                declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
            }
            let text = FixtureFiles.export(
                "<Record type=\"&lol9;\" sourceName=\"x\" startDate=\"2000-01-01 00:00:00 +0000\" endDate=\"2000-01-01 00:00:00 +0000\"/>",
                prolog: "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n\(declarations)]>\n")
            return (try FixtureFiles.write(text, named: "export.xml", in: folder).path, "entities")
        case .externalEntity:
            let text = FixtureFiles.export(
                "<Record type=\"&secret;\" sourceName=\"x\" startDate=\"2000-01-01 00:00:00 +0000\" endDate=\"2000-01-01 00:00:00 +0000\"/>",
                prolog:
                    "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY secret SYSTEM \"file:///etc/hostname\">\n]>\n"
            )
            return (try FixtureFiles.write(text, named: "export.xml", in: folder).path, "entities")
        case .externalDTDIsNeverRead:
            // Were the external DTD read, &defined; would expand and the check would succeed.
            _ = try FixtureFiles.write(
                "<!ENTITY defined \"HKQuantityTypeIdentifierStepCount\">\n", named: "outside.dtd", in: folder)
            let text = FixtureFiles.export(
                "<Record type=\"&defined;\" sourceName=\"x\" startDate=\"2000-01-01 00:00:00 +0000\" endDate=\"2000-01-01 00:00:00 +0000\"/>",
                prolog: "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData SYSTEM \"outside.dtd\">\n")
            return (try FixtureFiles.write(text, named: "export.xml", in: folder).path, "entity")
        case .missingPath:
            return (folder.appendingPathComponent("nowhere.zip").path, "no such file")
        case .emptyFolder:
            let empty = folder.appendingPathComponent("unzipped")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            return (empty.path, "empty")
        case .compressionBomb:
            // 64 MiB of white space inside a HealthData root deflates about 1000:1, beyond any export.
            let zip = folder.appendingPathComponent("export.zip")
            let archive = try Archive(url: zip, accessMode: .create)
            let size = 64 << 20
            let head = Array("<HealthData>".utf8)
            try archive.addEntry(
                with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(size),
                compressionMethod: .deflate
            ) { position, chunk in
                var bytes = [UInt8](repeating: 0x20, count: chunk)
                for index in 0..<chunk where Int(position) + index < head.count {
                    bytes[index] = head[Int(position) + index]
                }
                return Data(bytes)
            }
            return (zip.path, "expands beyond")
        case .garbage:
            var bytes = [UInt8](repeating: 0, count: 4096)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919) }
            return (try FixtureFiles.write(bytes, named: "export.xml", in: folder).path, "export.xml")
        case .spreadsheet:
            let rows = Array("date,steps\n2000-01-01,1234\n".utf8)
            return (
                try FixtureFiles.write(rows, named: "health.csv", in: folder).path,
                "not an apple health export (it does not read as xml)"
            )
        case .notAHealthDatabase:
            // An SQLite file given as a Health database that is not one.
            let file = folder.appendingPathComponent("notes.sqlite")
            let queue = try DatabaseQueue(path: file.path)
            try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
            try queue.close()
            return (file.path, "is not an iphone health database: it has no samples table")
        case .damagedHealthDatabase:
            // SQLite's header, then nothing a database holds.
            let file = folder.appendingPathComponent("healthdb_secure.sqlite")
            try (Data("SQLite format 3".utf8) + Data([0]) + Data(repeating: 0x5A, count: 4_096)).write(to: file)
            return (file.path, "is not a database healthprobe can read")
        case .deepNesting:
            // 25,000 nested unknown elements, 75 KB: once enough to overflow the stack.
            let depth = 25_000
            let body = String(repeating: "<Deep>", count: depth) + String(repeating: "</Deep>", count: depth)
            return (
                try FixtureFiles.write(FixtureFiles.export(body), named: "export.xml", in: folder).path,
                "nested more than 32 deep"
            )
        case .hugeValue:
            let value = String(repeating: "A", count: 11 << 20)
            let record =
                "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(value)\" unit=\"count\" "
                + "startDate=\"2000-01-01 00:00:00 +0000\" endDate=\"2000-01-01 00:01:00 +0000\" value=\"1\"/>"
            return (
                try FixtureFiles.write(FixtureFiles.export(record), named: "export.xml", in: folder).path,
                "longer than 10 mb"
            )
        case .twoFilesOfOneName:
            // The export twice under one name: unzip takes the last copy, other readers the first.
            let zip = try Self.zipWithRoute(in: folder)
            try ZipSurgery.repeatEntry(named: "apple_health_export/export.xml", in: zip, times: 1) { _ in
                "apple_health_export/export.xml"
            }
            return (zip.path, "two files named apple_health_export/export.xml")
        case .overlappingEntries:
            // 400 entries of the directory point at one route's bytes.
            let zip = try Self.zipWithRoute(in: folder)
            try ZipSurgery.repeatEntry(named: "apple_health_export/workout-routes/route_000.gpx", in: zip, times: 400) {
                String(format: "apple_health_export/workout-routes/route_%03d.gpx", $0 % 1000)
            }
            return (zip.path, "overlap")
        case .unencryptedBackup:
            // Only an encrypted backup holds Health data: refused before any password is asked.
            let backup = folder.appendingPathComponent("00008101-TESTDEVICE01")
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            let manifest: [String: Any] = ["IsEncrypted": false, "Version": "10.0"]
            try PropertyListSerialization.data(fromPropertyList: manifest, format: .binary, options: 0)
                .write(to: backup.appendingPathComponent("Manifest.plist"))
            return (backup.path, "is not encrypted, and only an encrypted backup holds health data")
        }
    }

    /// A small export zip with one workout route of a megabyte beside it.
    static func zipWithRoute(in folder: URL) throws -> URL {
        let zip = folder.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        let xml = Data(FixtureFiles.export(FixtureFiles.stepRecord).utf8)
        try archive.addEntry(
            with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count),
            compressionMethod: .deflate
        ) { position, size in xml.subdata(in: Int(position)..<Int(position) + size) }
        let route = Data(String(repeating: "<trkpt lat=\"0\" lon=\"0\"></trkpt>\n", count: 30_000).utf8)
        try archive.addEntry(
            with: "apple_health_export/workout-routes/route_000.gpx", type: .file,
            uncompressedSize: Int64(route.count), compressionMethod: .deflate
        ) { position, size in route.subdata(in: Int(position)..<Int(position) + size) }
        return zip
    }
}

/// Rewrites a zip's central directory by hand, for zips no honest writer makes.
enum ZipSurgery {
    /// Adds `times` more directory records of the entry `name`, each pointing at the same local
    /// header and data, named by `rename(copy number)` (a name of the same length).
    static func repeatEntry(named name: String, in zip: URL, times: Int, rename: (Int) -> String) throws {
        var bytes = [UInt8](try Data(contentsOf: zip))
        let end = bytes.count - 22
        precondition(Array(bytes[end..<end + 4]) == [0x50, 0x4B, 0x05, 0x06], "a zip without a comment")
        func little(_ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        func put(_ value: Int, _ size: Int, into target: inout [UInt8], at: Int) {
            for index in 0..<size { target[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        let count = little(end + 10, 2)
        let directorySize = little(end + 12, 4)
        let directoryStart = little(end + 16, 4)
        var directory = Array(bytes[directoryStart..<directoryStart + directorySize])
        var offset = 0
        var record: [UInt8]?
        for _ in 0..<count {
            let nameLength = little(directoryStart + offset + 28, 2)
            let extra = little(directoryStart + offset + 30, 2)
            let comment = little(directoryStart + offset + 32, 2)
            let length = 46 + nameLength + extra + comment
            let recordName = String(decoding: directory[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
            if recordName == name { record = Array(directory[offset..<offset + length]) }
            offset += length
        }
        guard let record else { throw CocoaError(.fileReadCorruptFile) }
        for copy in 1...times {
            var added = record
            let newName = Array(rename(copy).utf8)
            precondition(newName.count == name.utf8.count)
            added.replaceSubrange(46..<46 + newName.count, with: newName)
            directory += added
        }
        var tail = Array(bytes[end..<bytes.count])
        put(count + times, 2, into: &tail, at: 8)
        put(count + times, 2, into: &tail, at: 10)
        put(directory.count, 4, into: &tail, at: 12)
        bytes = Array(bytes[0..<directoryStart]) + directory + tail
        try Data(bytes).write(to: zip)
    }
}

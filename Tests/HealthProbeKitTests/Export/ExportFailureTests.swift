import Foundation
import HealthProbeSimulation
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// An export that cannot finish leaves nothing behind: no file, no temporary, the archive as it
/// was; and what a killed export left is removed the next time.
@Suite("Export: failures leave nothing")
struct ExportFailureTests {
    static func archive() throws -> (ArchiveTestSupport, ArchiveStore) {
        let support = try ArchiveTestSupport()
        let store = try support.openArchive()
        _ = try support.check(
            try support.generate("export.xml", SyntheticExportOptions(elementCount: 6_000, seed: 5)), in: store)
        return (support, store)
    }

    @Test(arguments: ExportFormat.allCases)
    func cancellingMidExportLeavesNoFile(format: ExportFormat) throws {
        let (support, store) = try Self.archive()
        let cancellation = CancellationFlag()
        let path = support.folder.appendingPathComponent("cancelled.\(format.rawValue)").path
        let request = ExportRequest(format: format, outputPath: path, password: format == .csv ? Array("pw".utf8) : nil)
        #expect(throws: ExportFailure.cancelled) {
            try store.export(request, files: support.partialFiles, cancellation: cancellation) { progress in
                if progress.recordsDone >= 2_048 { cancellation.cancel() }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: request.manifestPath))
        #expect(try support.partialFilesLeft().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: support.partialFiles.registryFolder).isEmpty)
        #expect(try store.fetchExportRuns().map(\.outcome) == [.cancelled])
    }

    @Test func aKilledExportsTemporaryIsRemovedNextTime() throws {
        let support = try ArchiveTestSupport()
        let files = support.partialFiles
        // What a killed export leaves: a registered temporary of a process that has ended.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let temporary = support.folder.appendingPathComponent(
            ".big.json.\(child.processIdentifier)-1\(PartialExportFiles.suffix)"
        ).path
        try Data("{\"export\":".utf8).write(to: URL(fileURLWithPath: temporary))
        try FileManager.default.createDirectory(atPath: files.registryFolder, withIntermediateDirectories: true)
        try Data(temporary.utf8).write(to: URL(fileURLWithPath: "\(files.registryFolder)/\(child.processIdentifier)-1"))
        // One of a live process (this one) stays.
        let live = try files.create(beside: support.folder.appendingPathComponent("live.json").path)
        #expect(files.removeAbandoned() == 1)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(FileManager.default.fileExists(atPath: live))
        files.remove(live)
        #expect(try support.partialFilesLeft().isEmpty)
    }

    @Test func anUnwritableDestinationIsRefusedBeforeAnyWork() throws {
        let (support, store) = try Self.archive()
        let missing = support.folder.appendingPathComponent("no-such-folder/export.json").path
        #expect(throws: ExportFailure.self) {
            try store.export(ExportRequest(format: .json, outputPath: missing), files: support.partialFiles)
        }
        let existing = support.folder.appendingPathComponent("export.json")
        try Data("mine".utf8).write(to: existing)
        #expect(throws: ExportFailure.outputExists(path: existing.path)) {
            try store.export(ExportRequest(format: .json, outputPath: existing.path), files: support.partialFiles)
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "mine")
        #expect(try support.partialFilesLeft().isEmpty)
        // The refused request is not a run; the folder that does not exist is a failed one.
        #expect(try store.fetchExportRuns().map(\.outcome) == [.failed])
    }

    @Test func anEncryptedExportDecryptsToThePlainOne() throws {
        let (support, store) = try Self.archive()
        for format in [ExportFormat.jsonl, .sqlite] {
            let plain = try support.runExport(store, format, name: "plain.\(format.rawValue)")
            let encrypted = try support.runExport(
                store, format, name: "secret.\(format.rawValue).enc", password: Array("Test Password".utf8))
            #expect(encrypted.encrypted)
            let output = support.folder.appendingPathComponent("decrypted.\(format.rawValue)").path
            let handle = try #require(FileHandle(forReadingAtPath: encrypted.path))
            try EncryptedExportFile.decrypt(
                handle, password: Array("Test Password".utf8), to: output, files: support.partialFiles)
            if format == .jsonl {
                // Byte for byte but the generation time in no line: JSONL has no head.
                #expect(
                    FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: plain.path))
            } else {
                #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(16) == Data("SQLite format 3\0".utf8))
            }
            try FileManager.default.removeItem(atPath: output)
            // A wrong password writes nothing.
            let again = try #require(FileHandle(forReadingAtPath: encrypted.path))
            #expect(throws: EncryptedExportError.wrongPassword) {
                try EncryptedExportFile.decrypt(
                    again, password: Array("wrong".utf8), to: output, files: support.partialFiles)
            }
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        #expect(try support.partialFilesLeft().isEmpty)
    }
}

import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Every input the fuzzers kept (`Fuzz/corpus/`, Scripts/fuzz.sh) goes through its reader again
/// on every test run: one that once trapped or hung would stop this test.
@Suite("Fuzz corpus replayed")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Fuzz/corpus").standardized

    static func inputs(_ target: String) throws -> [[UInt8]] {
        let folder = corpus.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().compactMap {
            FileManager.default.contents(atPath: folder.appendingPathComponent($0).path).map(Array.init)
        }
    }

    @Test func propertyListsAndKeybags() throws {
        let lists = try Self.inputs("plist")
        let keybags = try Self.inputs("keybag")
        #expect(!lists.isEmpty && !keybags.isEmpty)
        for input in lists { FuzzTargets.propertyList(input) }
        for input in keybags { FuzzTargets.keybag(input) }
    }

    @Test func healthDatabaseRows() throws {
        let folder = try FixtureFiles.temporaryFolder()
        let inputs = try Self.inputs("database")
        #expect(!inputs.isEmpty)
        let started = Date()
        let read = inputs.filter { FuzzTargets.healthDatabaseRows($0, folder: folder) }.count
        // The seeds are read to the end, not refused at the door.
        #expect(read > 0)
        // No private copy is left behind by any of them.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("healthprobe-db-")
        }
        #expect(left.isEmpty)
        #expect(Date().timeIntervalSince(started) < Double(inputs.count) * 2)
    }
}

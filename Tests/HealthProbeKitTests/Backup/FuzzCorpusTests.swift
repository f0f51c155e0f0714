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

    /// The archive's canonical JSON, clinical documents and routes: every seed and every input the
    /// fuzzer kept goes through its reader again.
    @Test func canonicalJSONClinicalDocumentsAndRoutes() throws {
        for (target, read) in [
            ("json", FuzzTargets.canonicalJSON), ("clinical", FuzzTargets.clinicalDocument),
            ("route", FuzzTargets.route),
        ] as [(String, ([UInt8]) -> Void)] {
            let inputs = try Self.inputs(target)
            #expect(!inputs.isEmpty, "no corpus for \(target)")
            for input in inputs { read(input) }
        }
    }

    /// A clinical document of millions of tiny values (16 MiB of `{}`) is refused by counting,
    /// before Foundation would build gigabytes of objects from it; a real one is within budget.
    @Test func aClinicalDocumentBeyondItsBudgetIsNeverParsed() throws {
        var flood: [UInt8] = [UInt8(ascii: "[")]
        flood.reserveCapacity(16 << 20)
        while flood.count < 16 << 20 { flood += Array("{},".utf8) }
        flood[flood.count - 1] = UInt8(ascii: "]")
        #expect(ClinicalDocument.beyondBudget(flood) == "it holds more than 50,000 values")
        #expect(ClinicalDocument.canonical(flood) == nil)
        #expect(ClinicalDocument.changedKeys(from: flood, to: flood) == ["(the whole document)"])
        let deep =
            Array(String(repeating: "[", count: 100_000).utf8) + Array(String(repeating: "]", count: 100_000).utf8)
        #expect(ClinicalDocument.beyondBudget(deep) == "it nests deeper than 64 levels")
        let observation = try #require(try Self.inputs("clinical").first { $0.count > 100 && $0.count < 10_000 })
        #expect(ClinicalDocument.beyondBudget(observation) == nil)
        #expect(ClinicalDocument.canonical(observation) != nil)
    }
}

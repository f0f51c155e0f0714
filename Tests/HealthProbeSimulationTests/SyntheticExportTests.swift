import Foundation
import HealthProbeSimulation
import Testing

/// The synthetic exports every test, benchmark and `generate` stands on: the same seed writes the
/// same bytes, another seed other records, and an incident that omits records only takes lines
/// away — what a test then finds missing is what the generator left out.
@Suite("Synthetic exports")
struct SyntheticExportTests {
    static func xml(_ options: SyntheticExportOptions) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        try SyntheticExportGenerator(options: options).writeXML(to: url)
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func records(_ xml: String) -> [Substring] {
        xml.split(separator: "\n").filter { $0.contains("<Record ") }
    }

    @Test func aSeedWritesTheSameExportEveryTime() throws {
        let first = try Self.xml(SyntheticExportOptions(elementCount: 1_500, seed: 11))
        #expect(try Self.xml(SyntheticExportOptions(elementCount: 1_500, seed: 11)) == first)
        #expect(try Self.xml(SyntheticExportOptions(elementCount: 1_500, seed: 12)) != first)
        #expect(Self.records(first).count > 1_000)
    }

    @Test func omittingRecordsOnlyTakesLinesAway() throws {
        let whole = Self.records(try Self.xml(SyntheticExportOptions(elementCount: 1_500, seed: 11)))
        var options = SyntheticExportOptions(elementCount: 1_500, seed: 11)
        options.omitEveryNth = 40
        let thinner = Self.records(try Self.xml(options))
        let left = Set(whole)
        #expect(thinner.count < whole.count)
        #expect(thinner.allSatisfy { left.contains($0) })
        let omitted = whole.count - thinner.count
        #expect(omitted >= whole.count / 50 && omitted <= whole.count / 30, "\(omitted) of \(whole.count)")
    }
}

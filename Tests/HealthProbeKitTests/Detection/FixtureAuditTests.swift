import AppleHealthExport
import Foundation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// The audit on real (anonymised) exports: a first check reports every group of exact copies,
/// by sample type, and never takes a correlation's samples, which also stand at top level,
/// for copies.
@Suite("Audit of the shared real-export fixtures")
struct FixtureAuditTests {
    /// Surplus copies per sample type, counted straight from the parsed elements with a
    /// dictionary: the same sample (kind, type, source, unit, times, value — or content when
    /// there is no value) more than once, correlation samples left out.
    static func expectedSurplus(_ url: URL) throws -> [String: Int] {
        var copies: [String: (type: String, count: Int)] = [:]
        var correlationSamples: Set<String> = []
        func key(_ record: HealthRecord) -> String {
            let value = record.numericValue.map { "\($0)" } ?? record.value ?? ("details:" + (record.detailsJSON ?? ""))
            return [
                record.kind.rawValue, record.type, record.sourceName ?? "-", record.unit ?? "-",
                record.startDate.map { "\($0)" } ?? "-", record.endDate.map { "\($0)" } ?? "-", value,
            ].joined(separator: "|")
        }
        _ = try AppleExportReader(url: url).read { element in
            let record = HealthRecord(exportElement: element)
            if case .correlation(let correlation) = element {
                for child in correlation.records { correlationSamples.insert(key(HealthRecord(record: child))) }
            }
            copies[key(record), default: (record.type, 0)].count += 1
        }
        var surplus: [String: Int] = [:]
        for (key, group) in copies where group.count > 1 && !correlationSamples.contains(key) {
            surplus[group.type, default: 0] += group.count - 1
        }
        return surplus
    }

    @Test(arguments: FixtureFiles.topLevelCounts.keys.sorted())
    func firstCheckReportsEachDuplicateGroupBySampleType(_ fixture: String) throws {
        let support = try ArchiveTestSupport()
        let audit = try support.check(FixtureFiles.url(fixture), in: try support.openArchive()).audit
        let reported = Dictionary(
            uniqueKeysWithValues: audit.anomalies.only(.duplicate).map { ($0.sampleType, $0.recordCount) })
        #expect(reported == (try Self.expectedSurplus(FixtureFiles.url(fixture))))
        // A first capture can only hold duplicates, overlaps and divergence.
        #expect(audit.anomalies.allSatisfy { [.duplicate, .sourceOverlap, .divergence].contains($0.type) })
    }

    /// The real fixtures hold neither copies nor correlations: this writes each one again with
    /// copies of its own one-line records (every other one twice, the first three times) and a
    /// blood-pressure correlation holding two of them. Nil when a fixture has too few such lines.
    static func withCopies(of fixture: String, in folder: URL) throws -> URL? {
        let text = try String(contentsOf: FixtureFiles.url(fixture), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let records = lines.indices.filter {
            let line = lines[$0].trimmingCharacters(in: .whitespaces)
            return line.hasPrefix("<Record ") && line.hasSuffix("/>")
        }
        guard records.count >= 4, let end = lines.lastIndex(where: { $0.contains("</HealthData>") }) else { return nil }
        let held = records.suffix(2).map { lines[$0] }
        lines.insert(
            "<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Test\" "
                + "creationDate=\"2000-01-01 08:00:00 +0000\" startDate=\"2000-01-01 08:00:00 +0000\" "
                + "endDate=\"2000-01-01 08:00:00 +0000\">\(held.joined())</Correlation>", at: end)
        for (order, index) in records.enumerated().reversed() where order % 2 == 0 {
            lines.insert(contentsOf: Array(repeating: lines[index], count: order == 0 ? 2 : 1), at: index)
        }
        let url = folder.appendingPathComponent((fixture as NSString).lastPathComponent)
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The XML fixtures with at least four one-line records.
    static let copyableFixtures = FixtureFiles.topLevelCounts.keys.sorted().filter { fixture in
        guard fixture.hasSuffix(".xml"), let text = try? String(contentsOf: FixtureFiles.url(fixture), encoding: .utf8)
        else { return false }
        return text.components(separatedBy: "\n").filter {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.hasPrefix("<Record ") && line.hasSuffix("/>")
        }.count >= 4
    }

    @Test func mostFixturesCanBeCopied() {
        #expect(Self.copyableFixtures.count >= 3, "\(Self.copyableFixtures)")
    }

    @Test(arguments: copyableFixtures)
    func copiesOfRealRecordsAreReportedBySampleTypeAndCorrelationSamplesNever(_ fixture: String) throws {
        let support = try ArchiveTestSupport()
        let copied = try #require(try Self.withCopies(of: fixture, in: support.folder))
        let store = try support.openArchive()
        let audit = try support.check(copied, in: store).audit
        let expected = try Self.expectedSurplus(copied)
        #expect(!expected.isEmpty)
        let reported = Dictionary(
            uniqueKeysWithValues: audit.anomalies.only(.duplicate).map { ($0.sampleType, $0.recordCount) })
        #expect(reported == expected)
        let (linked, flagged) = try store.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE correlationId IS NOT NULL") ?? 0,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM anomalyRecord JOIN record ON record.id = anomalyRecord.recordId
                        WHERE record.correlationId IS NOT NULL
                        """) ?? 0
            )
        }
        #expect(linked >= 2)
        #expect(flagged == 0)
    }
}

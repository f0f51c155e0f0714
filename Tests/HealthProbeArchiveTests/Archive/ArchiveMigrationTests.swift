import AppleHealthExport
import Foundation
import GRDB
import TestSupport
import Testing

@testable import HealthProbeArchive

/// An archive an earlier version wrote, opened by this one: migrated in place, it matches what
/// this version would have written, and checking the same export again finds nothing.
@Suite("Archives written by earlier versions")
struct ArchiveMigrationTests {
    /// The kit's test fixtures, which hold the archives earlier versions wrote.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../HealthProbeKitTests/Fixtures").standardized

    /// Per record (by strict fingerprint and occurrence): its semantic and fuzzy fingerprints;
    /// then the member fingerprints of correlations.
    static func identities(_ store: ArchiveStore) throws -> ([String: String], [String]) {
        try store.writer.read { db in
            let records = try Row.fetchAll(
                db, sql: "SELECT strictFingerprint, occurrence, semanticFingerprint, fuzzyFingerprint FROM record")
            var byRecord: [String: String] = [:]
            for row in records {
                let strict = (row["strictFingerprint"] as Data).map { String(format: "%02x", $0) }.joined()
                byRecord["\(strict)/\(row["occurrence"] as Int)"] =
                    "\((row["semanticFingerprint"] as Data).base64EncodedString()) "
                    + (row["fuzzyFingerprint"] as Data).base64EncodedString()
            }
            let members = try Data.fetchAll(db, sql: "SELECT memberFingerprint FROM correlationMember")
                .map { $0.base64EncodedString() }.sorted()
            return (byRecord, members)
        }
    }

    /// Each (type, source)'s first written instant and whether it entered records by hand.
    static func sourceArrivals(_ store: ArchiveStore) throws -> [String] {
        try store.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT type, sourceName, firstWritten, enteredByHand FROM sourceArrival ORDER BY 1, 2"
            ).map { row in
                "\(row[0] as String) \(row[1] as String) \(row[2] as Double)"
                    + ((row[3] as Bool) ? " by hand" : "")
            }
        }
    }

    @Test func aVersion3ArchiveGetsTheContentHashesThisVersionMakes() throws {
        let support = try ArchiveTestSupport()
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("version3-archive.sqlite"),
            to: URL(fileURLWithPath: support.archivePath))
        let export = Self.fixtures.appendingPathComponent("version3-export.zip")
        let (before, membersBefore) = try Self.identities(try ArchiveStore.open(at: support.archivePath))

        let fresh = try ArchiveStore.inMemory()
        _ = try fresh.writeExport(export, thresholds: Thresholds())
        let (expected, expectedMembers) = try Self.identities(fresh)

        #expect(before.count == 418)
        #expect(before == expected)
        #expect(!expectedMembers.isEmpty)
        #expect(membersBefore == expectedMembers)

        // What the day figures know of each source (when it arrived, whether it entered records
        // by hand) is filled from the records held, as an import of today fills it.
        let arrivals = try Self.sourceArrivals(try ArchiveStore.open(at: support.archivePath))
        #expect(arrivals == (try Self.sourceArrivals(fresh)))
        #expect(arrivals.contains { $0.hasSuffix(" by hand") })

        let again = try support.check(export, in: try support.openArchive())
        #expect(again.capture.new == 0)
        #expect(again.capture.gone == 0)
        #expect(again.audit.anomalies.isEmpty)
    }
}

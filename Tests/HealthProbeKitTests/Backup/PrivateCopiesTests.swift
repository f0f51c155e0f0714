import Foundation
import TestSupport
import Testing

@testable import HealthProbeKit

/// The private copies' folders are found among a temporary folder's names without reading the
/// others into strings, and only a folder of a process that has ended is removed.
@Suite("Private copies of Health databases")
struct PrivateCopiesTests {
    @Test func onlyOurNamesAreFoundAndOnlyAbandonedFoldersRemoved() throws {
        let root = try FixtureFiles.temporaryFolder()
        let ended = "healthprobe-db-999999999-\(UUID().uuidString)"
        let own = PrivateCopies.newFolder(in: root).lastPathComponent
        let others = ["healthprobe-db-", "healthprobe-d", "healthprobe-db-notapid-x", "report.txt", "healthprobe-dbx"]
        for name in [ended, own] + others {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        let found = Set(PrivateCopies.names(in: root.path, startingWith: PrivateCopies.prefix))
        #expect(found == [ended, own, "healthprobe-db-", "healthprobe-db-notapid-x"])
        #expect(PrivateCopies.names(in: root.appendingPathComponent("missing").path, startingWith: "x").isEmpty)

        #expect(PrivateCopies.removeAbandoned(in: root) == 1)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
        #expect(left == Set([own] + others))
    }
}

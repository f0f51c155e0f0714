import AppleHealthExport
import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Archives and generated exports for tests, each in its own temporary folder.
struct ArchiveTestSupport {
    let folder: URL

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
    }

    var archivePath: String { folder.appendingPathComponent("archive.sqlite").path }

    func openArchive() throws -> ArchiveStore {
        try ArchiveStore.open(at: archivePath)
    }

    func check(_ url: URL, in store: ArchiveStore) throws -> AppleExportImporter.Result {
        try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
    }

    /// Writes a synthetic export and returns its URL.
    func generate(_ name: String, _ options: SyntheticExportOptions) throws -> URL {
        try SyntheticExportGenerator(options: options).write(named: name, in: folder)
    }

    static func contentDigest(of path: String) throws -> String {
        try ArchiveInspection.digest(path)
    }
}

import AppleHealthExport
import Foundation
import GRDB
import HealthProbeSimulation
import TestSupport

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// Archives and generated exports for tests, each in its own temporary folder.
struct ArchiveTestSupport: ArchiveInFolder {
    let folder: URL

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
    }

    func check(_ url: URL, in store: ArchiveStore) throws -> AppleExportImporter.Result {
        try AppleExportImporter(store: store).importExport(AppleExportReader(url: url))
    }
}

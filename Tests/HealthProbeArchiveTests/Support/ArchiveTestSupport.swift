import AppleHealthExport
import Foundation
import HealthProbeSimulation
import TestSupport

@testable import HealthProbeArchive

/// Archives and generated exports for the archive's own tests, each in its own temporary
/// folder: an export is checked by writing it straight in through the capture feed
/// (``ReadExportFeed``), as the kit's importer hands it over, without the kit.
struct ArchiveTestSupport: ArchiveInFolder {
    let folder: URL

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
    }

    /// Writes the export at `url` into `store` as a capture, audited.
    func check(_ url: URL, in store: ArchiveStore, thresholds: Thresholds = Thresholds()) throws -> WrittenCapture {
        try store.writeExport(url, thresholds: thresholds).0
    }

    /// Checks each export in turn in a fresh archive; returns each check's anomalies.
    func audit(_ exports: [MiniExport]) throws -> [[Anomaly]] {
        let store = try openArchive()
        return try exports.enumerated().map { index, export in
            try check(try export.write(to: folder, name: "export\(index).xml"), in: store).audit.anomalies
        }
    }
}

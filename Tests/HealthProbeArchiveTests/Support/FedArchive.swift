import Foundation
import TestSupport

@testable import HealthProbeArchive

/// A fresh archive in a temporary folder that exports are written into straight through the
/// archive (``ReadExportFeed``), as the kit's importer hands them over.
struct FedArchive {
    let folder: URL
    let store: ArchiveStore

    init() throws {
        folder = try FixtureFiles.temporaryFolder()
        store = try ArchiveStore.open(at: folder.appendingPathComponent("archive.sqlite").path)
    }

    /// Writes each export in turn as a capture; returns each capture's anomalies.
    func audit(_ exports: [MiniExport], thresholds: Thresholds = Thresholds()) throws -> [[Anomaly]] {
        try exports.enumerated().map { index, export in
            let url = try export.write(to: folder, name: "export\(index).xml")
            return try store.writeExport(url, thresholds: thresholds).0.audit.anomalies
        }
    }
}

extension [Anomaly] {
    func only(_ type: AnomalyType) -> [Anomaly] { filter { $0.type == type } }
    var summaries: [String] { map { "\($0.type.rawValue) \($0.sampleType) \($0.recordCount)" } }
}

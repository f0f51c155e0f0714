import Foundation
import HealthProbeSimulation
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

    /// An archive two synthetic exports were written into, as `AuditedArchive` (the kit's tests')
    /// checks them: the second lost every 40th record and duplicated some, so it holds anomalies,
    /// audit entries and day bins to show.
    static func audited(records: Int = 3_000) throws -> FedArchive {
        let archive = try FedArchive()
        var first = SyntheticExportOptions(elementCount: records, seed: 7)
        first.incidents = [SyntheticIncident(.omit, items: 200..<260)]
        var second = SyntheticExportOptions(elementCount: records, seed: 7, omitEveryNth: 40)
        second.incidents = [SyntheticIncident(.duplicate(copies: 3), items: 100..<130)]
        for (name, options) in [("first.xml", first), ("second.xml", second)] {
            let url = archive.folder.appendingPathComponent(name)
            try SyntheticExportGenerator(options: options).writeXML(to: url)
            _ = try archive.store.writeExport(url, thresholds: Thresholds())
        }
        return archive
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

import Foundation
import TestSupport

@testable import HealthProbeArchive
@testable import HealthProbeKit

extension ArchiveTestSupport {
    /// Checks each export in turn in a fresh archive; returns each check's anomalies.
    func audit(_ exports: [MiniExport]) throws -> [[Anomaly]] {
        let store = try openArchive()
        return try exports.enumerated().map { index, export in
            try check(try export.write(to: folder, name: "export\(index).xml"), in: store).audit.anomalies
        }
    }
}

extension [Anomaly] {
    func only(_ type: AnomalyType) -> [Anomaly] { filter { $0.type == type } }
    var summaries: [String] { map { "\($0.type.rawValue) \($0.sampleType) \($0.recordCount)" } }
}

import Foundation

/// Files an export held that no record refers to (``StrayFiles``), gone from the next export —
/// their content nowhere in it, under any name: a route that no workout names deleted is a
/// route lost all the same. A warning: the archive keeps what they held.
enum StrayFileFindings {
    static func gone(_ files: [StrayFiles.Sighting], pair: CapturePair) -> [Finding] {
        Dictionary(grouping: files, by: \.kind).sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { kind, files in
            let count = files.count
            let names = files.map { String($0.path.split(separator: "/").last ?? "") }
            let shown =
                names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
            let (what, sampleType, type): (String, String, AnomalyType)
            switch kind {
            case .route: (what, sampleType, type) = ("workout route file", HealthRecord.workoutType, .routeChanged)
            case .clinicalDocument:
                (what, sampleType, type) = ("clinical document", "HKClinicalDocument", .documentMissing)
            case .clinicalSummary:
                (what, sampleType, type) = ("clinical summary", "HKClinicalDocument", .documentMissing)
            case .electrocardiogram: return nil
            }
            var evidence = ["files": names.joined(separator: ", "), "fileCount": String(count)]
            evidence[kind == .route ? "points" : "bytes"] = String(files.compactMap(\.items).reduce(0, +))
            evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
            return Finding(
                type: type, severity: .warning, sampleType: sampleType,
                summary: "\(EvidenceText.grouped(count)) \(what)\(count == 1 ? "" : "s") no record refers to "
                    + "\(count == 1 ? "is" : "are") gone (\(shown)); the archive keeps what "
                    + "\(count == 1 ? "it" : "they") held",
                recordCount: 0, evidence: evidence)
        }
    }
}

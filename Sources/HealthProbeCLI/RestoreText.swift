import Foundation
import HealthProbeArchive
import HealthProbeKit

/// `restore`'s words: what it would put back or has written, and what it leaves out and why.
enum RestoreText {
    /// `--json` after a file is written.
    struct Summary: Encodable {
        var path: String
        var anomalies: [Int64]
        var records: Int
        var encrypted: Bool
        var bytes: Int64
        var sha256: String
        var leftOut: RestoreFile.LeftOut

        init(_ result: RestoreResult) {
            path = result.path
            anomalies = result.file.anomalies
            records = result.file.records.count
            encrypted = result.encrypted
            bytes = result.bytes
            sha256 = result.sha256
            leftOut = result.file.leftOut
        }
    }

    static func preview(_ preview: RestorePreview) -> [String] {
        guard preview.records > 0 else {
            return ["Nothing to put back from \(anomalies(preview.anomalies))."] + leftOut(preview.leftOut)
        }
        var lines = [
            "Would put back \(records(preview.records)) from \(anomalies(preview.anomalies)) "
                + "(days in \(preview.timeZone); nothing written: --dry-run):"
        ]
        for type in preview.types {
            lines.append("\(HealthKitCatalog.displayName(of: type.type)): \(records(type.records))")
            lines += type.days.map { "  \($0.date)  \(Output.grouped($0.records))" }
        }
        return lines + leftOut(preview.leftOut)
    }

    static func written(_ result: RestoreResult, preview: RestorePreview) -> [String] {
        var lines = [
            "Wrote \(result.path)\(result.encrypted ? " (encrypted)" : ""): \(records(preview.records)) from "
                + "\(anomalies(preview.anomalies)), to put back with the HealthProbe app on the iPhone."
        ]
        lines += preview.types.map { type in
            let first = type.days.first?.date ?? ""
            let last = type.days.last?.date ?? ""
            return "  \(HealthKitCatalog.displayName(of: type.type)): \(records(type.records)), "
                + (first == last ? first : "\(first) – \(last)")
        }
        lines += leftOut(result.file.leftOut)
        lines.append("SHA-256: \(result.sha256)")
        return lines
    }

    /// "Left out: 3 records deleted on the phone (never put back); 2 records back in Health since."
    static func leftOut(_ leftOut: RestoreFile.LeftOut) -> [String] {
        leftOut.words.isEmpty ? [] : ["Left out: " + leftOut.words.joined(separator: "; ") + "."]
    }

    static func records(_ count: Int) -> String { RestoreWords.records(count) }
    static func anomalies(_ ids: [Int64]) -> String { RestoreWords.anomalies(ids) }
}

import AppleHealthExport
import Foundation
internal import GRDB

/// An ECG recording's voltages as the archive keeps them, for a screen to draw.
public struct ElectrocardiogramTrace: Sendable, Equatable {
    public var recordId: Int64
    /// Seconds since 1970, UTC.
    public var recordedAt: Double
    public var sampleRateHertz: Double
    /// The voltages' unit (`µV`).
    public var unit: String
    /// The Watch's classification (`Sinus Rhythm`).
    public var classification: String?
    public var voltages: [Double]

    /// The type ECG recordings are filed under (`HKDataTypeIdentifierElectrocardiogram`).
    public static let sampleType = ElectrocardiogramElement.sampleType

    /// The recording's length in seconds.
    public var seconds: Double { Double(voltages.count) / sampleRateHertz }
}

extension ArchiveStore {
    /// The ECG recordings among anomaly `id`'s records, at most `limit`, by recording time, each
    /// with its voltages as the last capture that held its file kept them. A recording whose
    /// voltages the archive does not hold is left out.
    public func fetchElectrocardiograms(anomalyID id: Int64, limit: Int = 3) throws -> [ElectrocardiogramTrace] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.startDate, r.unit, r.value, r.details,
                        (SELECT f.digest FROM referencedFile f
                         WHERE f.recordId = r.id AND f.kind = \(AttachedFile.Kind.electrocardiogram.sqlLiteral)
                             AND f.digest IS NOT NULL
                         ORDER BY f.captureId DESC LIMIT 1) AS digest
                    FROM anomalyRecord a JOIN record r ON r.id = a.recordId
                    WHERE a.anomalyId = ? AND r.kind = '\(HealthRecord.Kind.electrocardiogram.rawValue)'
                    ORDER BY r.startDate, r.id LIMIT ?
                    """, arguments: [id, limit])
            return try rows.compactMap { row -> ElectrocardiogramTrace? in
                guard let digest = row["digest"] as String?,
                    let bytes = try ReferencedFiles.content(digest: digest, db),
                    let voltages = VoltageCoding.decode(bytes)
                else { return nil }
                var detailsText = row["details"] as String? ?? ""
                let details = detailsText.withUTF8 { CanonicalJSON(canonicalText: $0) }
                let rate = details?["sampleRate"]?.string.flatMap(Self.hertz) ?? 512
                let scale = Double(DecimalText.power(voltages.decimals))
                return ElectrocardiogramTrace(
                    recordId: row["id"], recordedAt: row["startDate"] ?? 0, sampleRateHertz: rate,
                    unit: row["unit"] ?? "µV", classification: row["value"],
                    voltages: voltages.values.map { Double($0) / scale })
            }
        }
    }

    /// `512.844 hertz` → 512.844.
    private static func hertz(_ text: String) -> Double? {
        Double(text.prefix { $0.isNumber || $0 == "." }).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }
}

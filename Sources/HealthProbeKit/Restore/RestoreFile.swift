import Foundation
import HealthProbeArchive

/// A restore file (docs/RESTORE.md): the records an archive proves vanished and still gone, each
/// as it was archived, for the iPhone app to write back into Health once. Version 1.
public struct RestoreFile: Codable, Sendable, Equatable {
    public static let formatName = "healthprobe-restore"
    public static let currentVersion = 1

    /// Always ``formatName``.
    public var format: String
    /// ``currentVersion`` when written; a reader refuses a version it does not know.
    public var version: Int
    /// When the file was written, ISO 8601 in UTC.
    public var createdAt: String
    /// The anomalies whose lost records it holds.
    public var anomalies: [Int64]
    /// The records to write back, in time order.
    public var records: [Sample]
    /// What the anomalies' records hold that is not written back, and why.
    public var leftOut: LeftOut

    /// One record as archived.
    public struct Sample: Codable, Sendable, Equatable {
        /// The archived record's stable identifier: the restored sample's
        /// `HKMetadataKeySyncIdentifier` (with `HKMetadataKeySyncVersion` 1), so that writing it
        /// twice replaces rather than duplicates, and the next check knows it for the lost record.
        public var restoreIdentifier: String
        /// The anomaly that proved it gone.
        public var anomaly: Int64
        /// The HealthKit type identifier.
        public var type: String
        /// ISO 8601 in UTC, fractional seconds when it had any.
        public var startDate: String
        public var endDate: String
        /// The quantity, in `unit`; for a category, its value when the export wrote a number.
        public var value: Double?
        /// A category's value as the export names it (`HKCategoryValueSleepAnalysisAsleepCore`).
        public var categoryValue: String?
        public var unit: String?
        /// Who wrote it first, as archived: kept in the restored sample's own metadata, since a
        /// restored sample's source is the app that writes it.
        public var sourceName: String?
        public var sourceVersion: String?
        /// The device's description without its address.
        public var device: String?
        public var creationDate: String?
        /// Its metadata as archived, `[key, value]` pairs in their order.
        public var metadata: [[String]]
    }

    public struct LeftOut: Codable, Sendable, Equatable {
        /// Deleted on the phone (HealthKit said so): never put back.
        public var deleted: Int
        /// Back in Health since the loss.
        public var back: Int
        /// Put back by a restore already: a capture since holds HealthProbe's sample of it.
        public var restored: Int
        /// Explained since as another version of themselves (edited, replaced, reissued).
        public var explained: Int
        /// Records of kinds this version does not write back, by kind (`workout`, `correlation`).
        public var otherKinds: [String: Int]

        /// What `selection` leaves out, with `undated` records that had no start or end.
        init(_ selection: LostRecordSelection, undated: Int) {
            deleted = selection.deleted
            back = selection.back
            restored = selection.restored
            explained = selection.explained
            otherKinds = selection.otherKinds
            if undated > 0 { otherKinds["record without dates"] = undated }
        }

        /// Each reason in words: "3 records deleted on the phone (never put back)", "2 records back
        /// in Health since", …
        public var words: [String] {
            var parts: [String] = []
            if deleted > 0 { parts.append("\(RestoreWords.records(deleted)) deleted on the phone (never put back)") }
            if back > 0 { parts.append("\(RestoreWords.records(back)) back in Health since") }
            if restored > 0 { parts.append("\(RestoreWords.records(restored)) put back already") }
            if explained > 0 { parts.append("\(RestoreWords.records(explained)) edited or replaced since (not lost)") }
            for (kind, count) in otherKinds.sorted(by: { $0.key < $1.key }) {
                parts.append(
                    "\(EvidenceText.grouped(count)) \(kind)\(count == 1 ? "" : "s") (not put back by this version)")
            }
            return parts
        }
    }

    public init(_ selection: LostRecordSelection, createdAt: Date = Date()) {
        format = Self.formatName
        version = Self.currentVersion
        self.createdAt = UTCText.iso8601(seconds: createdAt.timeIntervalSince1970.rounded(.down))
        anomalies = selection.anomalies
        var undated = 0
        records = selection.records.compactMap { record in
            guard let start = record.startDate, let end = record.endDate else {
                undated += 1
                return nil
            }
            let numeric = record.value.flatMap(Double.init) != nil
            return Sample(
                restoreIdentifier: record.restoreIdentifier, anomaly: record.anomalyId, type: record.type,
                startDate: UTCText.iso8601(seconds: start), endDate: UTCText.iso8601(seconds: end),
                value: record.numericValue, categoryValue: numeric ? nil : record.value, unit: record.unit,
                sourceName: record.sourceName, sourceVersion: record.sourceVersion, device: record.device,
                creationDate: record.creationDate.map { UTCText.iso8601(seconds: $0) },
                metadata: record.metadata.map { [$0.key, $0.value] })
        }
        leftOut = LeftOut(selection, undated: undated)
    }
}

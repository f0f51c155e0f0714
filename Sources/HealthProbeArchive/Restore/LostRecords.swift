import Foundation
internal import GRDB

/// A record the archive proves vanished and still gone, with everything a restore writes back:
/// its type, times, value and unit, its source, device and creation date as archived, and a
/// stable identifier of the archived record.
public struct LostRecord: Sendable, Equatable {
    public var recordId: Int64
    /// The anomaly that proved it gone.
    public var anomalyId: Int64
    public var kind: String
    public var type: String
    public var sourceName: String?
    public var sourceVersion: String?
    /// The device's description without its address, as archived.
    public var device: String?
    public var unit: String?
    /// The value as read (a number, or a category's value name).
    public var value: String?
    public var numericValue: Double?
    public var creationDate: Double?
    public var startDate: Double?
    public var endDate: Double?
    /// The metadata as archived, in its order.
    public var metadata: [MetadataEntry]
    /// The capture that first missed it.
    public var goneCapture: Int64
    /// The archived record's identifier, the same in every archive that holds this record: its
    /// strict fingerprint and its occurrence (``restoreIdentifier(fingerprint:occurrence:)``).
    public var restoreIdentifier: String

    public struct MetadataEntry: Sendable, Equatable {
        public var key: String
        public var value: String
    }

    /// What a restored sample carries as `HKMetadataKeySyncIdentifier`: `HealthProbe-` and the
    /// record's strict fingerprint in hex, then its occurrence among identical copies.
    public static func restoreIdentifier(fingerprint: Data, occurrence: Int) -> String {
        "HealthProbe-" + HexText.encode(Array(fingerprint)) + "-\(occurrence)"
    }
}

/// What a restore of some anomalies would write, and what of their records it leaves out and why.
public struct LostRecordSelection: Sendable, Equatable {
    /// The anomalies read, in id order.
    public var anomalies: [Int64]
    /// The records to write back, in time order.
    public var records: [LostRecord]
    /// Records HealthKit reported deleted (a deletion on the phone, by the user or an app):
    /// never restored.
    public var deleted: Int
    /// Records back in the archive since: nothing to restore.
    public var back: Int
    /// Records a restore put back, held by a capture since: restored already.
    public var restored: Int = 0
    /// Records explained since as another version of themselves (replaced, edited, reissued) or
    /// held only by a capture set aside.
    public var explained: Int
    /// Records of kinds a restore does not write yet, by kind (`workout`, `correlation`, …).
    public var otherKinds: [String: Int]
}

/// Why a restore of an anomaly was refused.
public enum RestoreRefusal: Refusal, Equatable {
    case unknownAnomaly(Int64)
    /// The anomaly is not a loss: nothing of it vanished.
    case notALoss(Int64, words: String)
    /// The capture looked like someone else's export: its "losses" are not the user's.
    case unrelatedCapture(Int64, capture: Int64)
    /// The anomaly was withdrawn with its capture, set aside.
    case withdrawn(Int64)
    case unknownCapture(Int64)
    /// The capture proved no loss.
    case captureLostNothing(Int64)

    public var message: String {
        switch self {
        case .unknownAnomaly(let id): "there is no anomaly \(id)"
        case .notALoss(let id, let words):
            "anomaly \(id) (\(words)) found nothing that vanished: there is nothing to put back"
        case .unrelatedCapture(let id, let capture):
            "anomaly \(id) compares capture \(capture), which looks like someone else's export: its records are not "
                + "yours to put back; set it aside with healthprobe captures exclude \(capture)"
        case .withdrawn(let id): "anomaly \(id) was withdrawn with the capture set aside: nothing to put back"
        case .unknownCapture(let id): "there is no complete capture \(id)"
        case .captureLostNothing(let id): "capture \(id) proved no record lost: nothing to put back"
        }
    }

    public var exitCode: Int32 { RefusalCode.usage }
    public var wayOn: WayOn? {
        switch self {
        case .unknownAnomaly, .notALoss: .listAnomalies
        default: nil
        }
    }
}

extension ArchiveStore {
    /// The records anomalies `ids` prove vanished and that are still gone — never one HealthKit
    /// reported deleted, one back since, or one explained as another version of itself.
    /// Refused, naming the first, when an id is no loss of the user's.
    public func lostRecords(anomalies ids: [Int64]) throws -> LostRecordSelection {
        try read { db in try Self.lostRecords(Array(Set(ids)).sorted(), db) }
    }

    /// What capture `id` proved lost: the records of its silent deletions still gone.
    public func lostRecords(capture id: Int64) throws -> LostRecordSelection {
        try read { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM capture WHERE id = ? AND status = \(CaptureStatus.complete.sqlLiteral)",
                    arguments: [id]) == true
            else { throw RestoreRefusal.unknownCapture(id) }
            let anomalies = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM anomaly WHERE captureId = ? AND type = ? AND withdrawnAt IS NULL ORDER BY id
                    """, arguments: [id, AnomalyType.silentDeletion.rawValue])
            guard !anomalies.isEmpty else { throw RestoreRefusal.captureLostNothing(id) }
            return try Self.lostRecords(anomalies, db)
        }
    }

    private static func lostRecords(_ ids: [Int64], _ db: Database) throws -> LostRecordSelection {
        for id in ids {
            guard let anomaly = try Anomaly.fetchOne(db, sql: "SELECT * FROM anomaly WHERE id = ?", arguments: [id])
            else { throw RestoreRefusal.unknownAnomaly(id) }
            if anomaly.withdrawn { throw RestoreRefusal.withdrawn(id) }
            switch anomaly.type {
            case .silentDeletion: break
            case .unrelatedCapture: throw RestoreRefusal.unrelatedCapture(id, capture: anomaly.captureId)
            default: throw RestoreRefusal.notALoss(id, words: anomaly.type.heading(of: anomaly.sampleType))
            }
        }
        var selection = LostRecordSelection(
            anomalies: ids, records: [], deleted: 0, back: 0, explained: 0, otherKinds: [:])
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.anomalyId, r.id, r.kind, r.type, r.sourceName, r.sourceVersion, d.description AS device,
                    r.unit, r.value, r.numericValue, r.creationDate, r.startDate, r.endDate, r.metadata,
                    r.goneCapture, r.goneReason, r.strictFingerprint, r.occurrence, r.correlationId,
                    EXISTS (\(RestoredRecords.restoredSQL("r.id"))) AS restored
                FROM anomalyRecord AS l JOIN record AS r ON r.id = l.recordId
                LEFT JOIN device AS d ON d.id = r.deviceId
                WHERE l.anomalyId IN (\(ids.map(String.init).joined(separator: ","))) AND l.role = 'vanished'
                ORDER BY r.startDate, r.endDate, r.id
                """)
        var seen = Set<Int64>()
        while let row = try rows.next() {
            let recordId: Int64 = row["id"]
            guard seen.insert(recordId).inserted else { continue }
            let gone: Int64? = row["goneCapture"]
            let reason: String? = row["goneReason"]
            guard let gone else {
                selection.back += 1
                continue
            }
            switch reason.flatMap(GoneReason.init(rawValue:)) {
            case .absent? where row["restored"] as Bool:
                selection.restored += 1
                continue
            case .absent?: break
            case .deleted?:
                selection.deleted += 1
                continue
            default:
                selection.explained += 1
                continue
            }
            let kind: String = row["kind"]
            guard kind == "record" else {
                selection.otherKinds[kind, default: 0] += 1
                continue
            }
            // A reading of a blood pressure or a meal goes back with its correlation, not alone.
            if (row["correlationId"] as Int64?) != nil {
                selection.otherKinds["correlation reading", default: 0] += 1
                continue
            }
            selection.records.append(
                LostRecord(
                    recordId: recordId, anomalyId: row["anomalyId"], kind: kind, type: row["type"],
                    sourceName: row["sourceName"], sourceVersion: row["sourceVersion"], device: row["device"],
                    unit: row["unit"], value: row["value"], numericValue: row["numericValue"],
                    creationDate: row["creationDate"], startDate: row["startDate"], endDate: row["endDate"],
                    metadata: Self.metadataEntries(row["metadata"]), goneCapture: gone,
                    restoreIdentifier: LostRecord.restoreIdentifier(
                        fingerprint: row["strictFingerprint"], occurrence: row["occurrence"])))
        }
        return selection
    }

    /// The archive's metadata text (`[["key","value"], …]`) as entries, in their order.
    private static func metadataEntries(_ text: String?) -> [LostRecord.MetadataEntry] {
        guard let text, let pairs = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String]] else {
            return []
        }
        return pairs.compactMap { $0.count == 2 ? LostRecord.MetadataEntry(key: $0[0], value: $0[1]) : nil }
    }
}

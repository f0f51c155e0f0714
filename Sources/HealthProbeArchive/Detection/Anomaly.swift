import Foundation
internal import GRDB

/// An anomaly as scripts and the dashboard read it (docs/DESIGN.md §9).
public struct Anomaly: Sendable, Codable, Equatable, RowDecodable {
    public var id: Int64
    public var captureId: Int64
    /// Whole seconds; ISO 8601 in UTC in JSON (``ReportJSON``).
    public var detectedAt: Date
    public var type: AnomalyType
    public var severity: Severity
    /// The HealthKit identifier as written in the export.
    public var sampleType: String
    public var summary: String
    public var recordCount: Int
    /// lowerCamelCase keys; never health values.
    public var evidence: [String: String]
    public var resolved: Bool
    /// How many of a loss's records a later capture holds again (silent deletions).
    public var recoveredCount: Int
    /// The last capture that brought any back.
    public var recoveredCapture: Int64?
    /// When the last of them came back: the loss is recovered, no longer open.
    public var recoveredAt: Date?
    /// How many of a loss's records HealthProbe put back into Health and a later capture holds
    /// (``RestoredRecords``).
    public var restoredCount: Int
    /// The last capture that held any of them.
    public var restoredCapture: Int64?
    /// When the capture began that held the last of the records not back by themselves: the loss
    /// is restored, no longer open.
    public var restoredAt: Date?
    /// Why it was withdrawn: its capture was set aside (`captures exclude`), with this reason.
    public var withdrawnReason: String?

    /// Its capture was set aside: it no longer counts, and says why.
    public var withdrawn: Bool { withdrawnReason != nil }
    /// Every record of the loss is back.
    public var recovered: Bool { recoveredAt != nil }
    /// Every record of the loss is back or put back by a restore.
    public var restored: Bool { restoredAt != nil }
    /// Neither resolved by the user, recovered by the data, restored, nor withdrawn with its capture.
    public var isOpen: Bool { !resolved && !recovered && !restored && !withdrawn }

    /// Its state in words: "open", "resolved", "recovered: all back since capture 3", "restored: 111 of 111
    /// put back since capture 5", "withdrawn: …", or how many are back or put back of a loss partly
    /// returned.
    public var status: String {
        if let withdrawnReason { return "withdrawn with capture \(captureId), set aside: \(withdrawnReason)" }
        let total = EvidenceText.grouped(recordCount)
        if let recoveredCapture, recovered {
            return "recovered: all \(total) back since capture \(recoveredCapture)" + (resolved ? ", resolved" : "")
        }
        let back =
            recoveredCount > 0 && recoveredCapture != nil
            ? "\(EvidenceText.grouped(recoveredCount)) of \(total) back since capture \(recoveredCapture ?? 0)" : nil
        let put =
            restoredCount > 0 && restoredCapture != nil
            ? "\(EvidenceText.grouped(restoredCount)) of \(total) put back since capture \(restoredCapture ?? 0)" : nil
        if restored, let put {
            return "restored: " + ([put] + (back.map { [$0] } ?? [])).joined(separator: ", ")
                + (resolved ? ", resolved" : "")
        }
        return ([resolved ? "resolved" : "open"] + [back, put].compactMap { $0 }).joined(separator: ", ")
    }

    init(row: Row) throws {
        id = row["id"]
        captureId = row["captureId"]
        detectedAt = Date(timeIntervalSince1970: (row["detectedAt"] as Double).rounded(.down))
        let typeText: String = row["type"]
        let severityText: String = row["severity"]
        guard let type = AnomalyType(rawValue: typeText), let severity = Severity(rawValue: severityText) else {
            throw ArchiveError.storage(problem: "anomaly \(id) has an unknown type or severity")
        }
        self.type = type
        self.severity = severity
        sampleType = row["sampleType"]
        summary = row["summary"]
        recordCount = row["recordCount"]
        let evidenceText: String = row["evidence"]
        evidence = (try? JSONDecoder().decode([String: String].self, from: Data(evidenceText.utf8))) ?? [:]
        resolved = (row["resolvedAt"] as Double?) != nil
        recoveredCount = row["recoveredCount"] ?? 0
        recoveredCapture = row["recoveredCapture"]
        recoveredAt = (row["recoveredAt"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        restoredCount = row["restoredCount"] ?? 0
        restoredCapture = row["restoredCapture"]
        restoredAt = (row["restoredAt"] as Double?).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        withdrawnReason = row["withdrawnReason"]
    }
}

/// What a detector found, before it is stored: the anomaly's content and how to find the
/// records it is about.
public struct Finding: Sendable, Equatable {
    public var type: AnomalyType
    public var severity: Severity
    public var sampleType: String
    public var summary: String
    public var recordCount: Int
    public var evidence: [String: String]
    /// The records, by role ("vanished", "inserted", "surplus", "before", "after", …).
    var records: [RecordLink] = []

    /// The records of a finding: listed, or chosen by a query over the archive (one column of
    /// record ids), so that a large finding never holds its records in memory.
    enum RecordLink: Sendable, Equatable {
        case ids(role: String, [Int64])
        case query(role: String, sql: String, arguments: [DatabaseValue])
    }
}

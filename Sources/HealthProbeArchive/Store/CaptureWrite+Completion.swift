import AppleHealthExport
import Foundation
internal import GRDB

/// What a capture ends with: its counts, the columns its origin adds, and the words the audit
/// trail gives it.
struct CaptureCompletion {
    var records: Int
    var new: Int
    var gone: Int
    /// Records held before and now: every record read that is not new (never below nothing,
    /// whatever another writer did meanwhile).
    var unchanged: Int { max(0, records - new) }
    /// What an export's or a database's elements counted, as canonical JSON.
    var elementCounts = "{}"
    /// What the audit trail adds after the counts ("capture N complete: 1,234 records, 5 new, 2 gone").
    var auditSuffix = ""
    /// What only some origins know, set as the capture completes.
    var exportDate: Double?
    var exportUTCOffset: Int?
    /// Every offset an export wrote its samples' dates at (daylight saving time changes them).
    var offsetSpans: OffsetSpans?
    var exportVersion: Int?
    var locale: String?
    var unreadable: Int?
    var replacedCharacters: Int?
    var deletedInHealth: Int?
    var notCompared: Int?
    /// The timeline the records were followed in as they came, when their ids are its numbers.
    var streamedTimeline: StreamedTimeline?

    init(records: Int, new: Int, gone: Int, elementCounts: String = "{}", auditSuffix: String = "") {
        self.records = records
        self.new = new
        self.gone = gone
        self.elementCounts = elementCounts
        self.auditSuffix = auditSuffix
    }

    /// The capture row's columns this completion sets, besides its status and when it completed.
    var columns: [(name: String, value: (any DatabaseValueConvertible)?)] {
        let fixed: [(name: String, value: (any DatabaseValueConvertible)?)] = [
            ("records", records), ("new", new), ("gone", gone), ("unchanged", unchanged),
            ("elementCounts", elementCounts),
        ]
        let optional: [(name: String, value: (any DatabaseValueConvertible)?)] = [
            ("exportDate", exportDate), ("exportUTCOffset", exportUTCOffset), ("exportVersion", exportVersion),
            ("locale", locale), ("unreadable", unreadable), ("replacedCharacters", replacedCharacters),
            ("deletedInHealth", deletedInHealth), ("notCompared", notCompared),
            ("exportOffsetSpans", offsetSpans.flatMap { $0.spans.isEmpty ? nil : CaptureOffsets.text($0) }),
        ]
        return fixed + optional.filter { $0.value != nil }
    }
}

extension CaptureWrite {
    /// The timeline the fingerprint stage followed, when its row numbers are this capture's ids:
    /// the archive started empty and holds exactly the rows it counted, so the n-th row written
    /// has id n.
    func confirmed(_ timeline: StreamedTimeline?) throws -> StreamedTimeline? {
        guard startedEmpty, let timeline, timeline.rows == Int64(records),
            try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") == timeline.rows
        else { return nil }
        return timeline
    }

    /// Completes the capture, one way for exports, backups and the live path: its row marked
    /// complete with its counts, the trail's entry, the detectors run against the previous
    /// capture, the returned marks cleared, and the capture read back. `checkpoint` runs before
    /// and after the detectors (a live check stops there when its time is up).
    func complete(
        _ completion: CaptureCompletion, thresholds: Thresholds, checkpoint: () throws -> Void = {}
    ) throws -> (CaptureSummary, CaptureAudit.Report) {
        let columns = [("completedAt", Date().timeIntervalSince1970)] + completion.columns
        let assignments = ["status = \(CaptureStatus.complete.sqlLiteral)"] + columns.map { "\($0.name) = ?" }
        try db.execute(
            sql: "UPDATE capture SET \(assignments.joined(separator: ", ")) WHERE id = ?",
            arguments: StatementArguments(columns.map(\.value) + [captureID]))
        try AuditLog.append(
            db, event: .captureCompleted, captureID: captureID,
            message: "capture \(captureID) complete: \(EvidenceText.grouped(completion.records)) records, "
                + "\(EvidenceText.grouped(completion.new)) new, \(EvidenceText.grouped(completion.gone)) gone"
                + completion.auditSuffix)
        try checkpoint()
        let audit = try CaptureAudit.run(
            db, captureID: captureID, recordIDFloor: recordIDFloor, thresholds: thresholds,
            streamed: completion.streamedTimeline)
        try checkpoint()
        try clearReturned()
        try AnomalyRecovery.record(db, captureID: captureID)
        try RestoredRecords.refresh(db)
        guard
            let summary = try CaptureSummary.fetchOne(
                db, sql: "SELECT * FROM capture WHERE id = ?", arguments: [captureID])
        else { throw ArchiveError.storage(problem: "the capture vanished while it was written") }
        return (summary, audit)
    }
}

import Foundation
internal import GRDB

/// What a backup check does with the records it did not meet (the backup importer's): those whose
/// deletion the database remembers are gone as deleted in Health (or, deleted by healthd to
/// pack them into a series, as replaced); the rest of the kinds a database describes are gone
/// without a trace; every other kind is carried over, not compared.
struct BackupTombstones {
    let captureID: Int64
    let previous: Int64?
    let keyingSources: Bool
    /// The records a backup bound to a UUID before this check.
    let matcher: BackupSampleMatcher

    struct Outcome {
        var deletions: [BackupDeletion] = []
        /// Deletions the database remembers.
        var read = 0
        /// Of those, healthd's own.
        var housekeeping = 0
        /// Records marked replaced by healthd's own deletions.
        var replaced = 0
    }

    /// Marks the records the tombstones name: by UUID, else (a sample the archive knows from an
    /// export) by type, start and end to the second and source, among what the previous capture
    /// held and this one did not meet. One audit entry a type and day of deletion.
    func apply(_ tombstones: [HealthTombstone], _ db: Database) throws -> Outcome {
        var outcome = Outcome(read: tombstones.count, housekeeping: tombstones.filter(\.isHousekeeping).count)
        let byUUID = try db.cachedStatement(
            sql:
                """
                SELECT id, type FROM record \(RecordSightings.join)
                WHERE id = ? AND sampleUUID = ? AND goneCapture IS NULL AND sighting.lastSeenCapture <> ?
                """)
        let bySlot = try db.cachedStatement(
            sql: """
                SELECT id, type, sourceName FROM record \(RecordSightings.join)
                WHERE startDate BETWEEN ?1 - 1 AND ?1 + 1 AND type = ?2 AND abs(endDate - ?3) <= 1
                    AND sighting.lastSeenCapture = ?4 AND goneCapture IS NULL AND sampleUUID IS NULL
                    AND healthKitUUID IS NULL
                """)
        let mark = try db.cachedStatement(sql: "UPDATE record SET goneCapture = ?, goneReason = ? WHERE id = ?")
        var byDay: [String: [String: Int]] = [:]
        for tombstone in tombstones {
            guard let (id, type) = try record(of: tombstone, byUUID: byUUID, bySlot: bySlot) else { continue }
            if tombstone.isHousekeeping {
                try mark.execute(arguments: [captureID, GoneReason.replaced.rawValue, id])
                outcome.replaced += 1
            } else {
                try mark.execute(arguments: [captureID, GoneReason.deleted.rawValue, id])
                byDay[type, default: [:]][
                    UTCText.day(of: Date(timeIntervalSince1970: tombstone.deletedAt)), default: 0] += 1
            }
        }
        for (type, days) in byDay.sorted(by: { $0.key < $1.key }) {
            for (day, count) in days.sorted(by: { $0.key < $1.key }) {
                outcome.deletions.append(BackupDeletion(sampleType: type, day: day, count: count))
                try AuditLog.append(
                    db, event: .recordsDeleted, captureID: captureID,
                    message: "capture \(captureID): \(count) \(type) records deleted in Health on \(day) "
                        + "(the backup's deletion records)")
            }
        }
        if outcome.replaced > 0 {
            try AuditLog.append(
                db, event: .recordsUpdated, captureID: captureID,
                message: "capture \(captureID): \(outcome.replaced) records packed by Health into series samples, "
                    + "which still hold them: not a loss")
        }
        return outcome
    }

    private func record(of tombstone: HealthTombstone, byUUID: Statement, bySlot: Statement) throws
        -> (id: Int64, type: String)?
    {
        if let bound = matcher.record(boundTo: tombstone.uuid),
            let row = try Row.fetchOne(
                byUUID, arguments: [bound, withUnsafeBytes(of: tombstone.uuid.uuid) { Data($0) }, captureID])
        {
            return (row["id"], row["type"])
        }
        guard let previous, let type = tombstone.type, let start = tombstone.startDate, let end = tombstone.endDate
        else { return nil }
        let wanted = tombstone.sourceName.map(RecordFingerprints.normalizedSourceName)
        for row in try Row.fetchAll(bySlot, arguments: [start, type, end, previous]) {
            let source: String? = row["sourceName"]
            if keyingSources, let wanted, source.map(RecordFingerprints.normalizedSourceName) != wanted { continue }
            return (row["id"], type)
        }
        return nil
    }

    /// Marks what the previous capture held of the kinds a database describes, and this one did
    /// not meet, gone without a trace; returns how many records.
    static func markAbsent(captureID: Int64, _ db: Database) throws -> Int {
        try db.execute(
            sql: """
                UPDATE record SET goneCapture = ?1, goneReason = \(GoneReason.absent.sqlLiteral)
                WHERE id IN (SELECT recordId FROM recordSighting WHERE lastSeenCapture <> ?1)
                    AND goneCapture IS NULL AND healthKitUUID IS NULL AND \(HealthDatabaseTypes.describedRecordsSQL)
                """, arguments: [captureID])
        return db.changesCount
    }

    /// Carries over what a database does not describe, held by this capture as by the previous,
    /// neither verified nor judged; returns how many records.
    static func carryOver(captureID: Int64, _ db: Database) throws -> Int {
        try db.execute(
            sql: """
                UPDATE recordSighting SET previousSeenCapture = lastSeenCapture, lastSeenCapture = ?1
                WHERE lastSeenCapture <> ?1 AND EXISTS (
                    SELECT 1 FROM record
                    WHERE id = recordSighting.recordId AND goneCapture IS NULL AND healthKitUUID IS NULL)
                """, arguments: [captureID])
        return db.changesCount
    }

    init(captureID: Int64, previous: Int64? = nil, keyingSources: Bool, matcher: BackupSampleMatcher) {
        self.captureID = captureID
        self.previous = previous
        self.keyingSources = keyingSources
        self.matcher = matcher
    }
}

/// Records a Health database remembers deleting, of one type on one UTC day.
public struct BackupDeletion: Sendable, Equatable, Codable {
    public var sampleType: String
    /// `2000-02-03`
    public var day: String
    public var count: Int
}

import Foundation
import GRDB

extension ArchiveStore {
    /// Writes one export's or Health database's capture, in one transaction: its row, running,
    /// compared with the latest export or backup, with the two audit entries that land with it or
    /// not at all (a refused input leaves only its own); handed to `body` to fill and complete,
    /// and gone without a trace if `body` throws, which throws the archive's own errors in words.
    /// `input` names the kind of input for the trail ("an export", "a Health database"). The page
    /// cache is the import's, larger than a reader's.
    public func writeSnapshotCapture<T>(
        origin: CaptureOrigin, inputName: String, input: String, startedAt: Date, insertsOnly: Bool = false,
        pageCacheKiB: Int = ArchiveStore.importPageCacheKiB, _ body: (CaptureIngest) throws -> T
    ) throws -> T {
        do {
            return try withBulkLoadJournal {
                try writer.write { db in
                    // A larger page cache keeps hot index pages from being written to the WAL again and again.
                    try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)")
                    let previous = try Self.latestSnapshotCaptureID(db)
                    try AuditLog.append(db, event: .archiveOpened, message: "archive opened to check \(input)")
                    let captureID = try CaptureStart(
                        origin: origin, scope: .full, inputName: inputName, startedAt: startedAt, previous: previous,
                        auditDetail: (origin == .backup ? " from \(input)" : "")
                            + (previous.map { ", compared with capture \($0)" } ?? ", the first")
                    ).insert(db)
                    let ingest = try CaptureIngest(
                        db: db, captureID: captureID, previousCaptureID: previous,
                        verifiedAt: startedAt.timeIntervalSince1970, insertsOnly: insertsOnly)
                    return try body(ingest)
                }
            }
        } catch {
            throw ArchiveError.from(error, path: pathInMessages) ?? error
        }
    }
}

extension CaptureIngest {
    /// Lets records a backup described first be met by an export's content (an export after a
    /// backup): nil matcher when the previous capture held none.
    public func matchRecordsBackupsDescribed() throws {
        backupRecords = try BackupRecordMatcher.make(for: self, previous: previousCaptureID)
    }

    /// Every file the export holds was read alongside: the files still unread, it does not hold.
    public func resolveUnreadFiles() throws {
        try ReferencedFiles.resolve(known: knownFiles, captureID: captureID, db)
        try StrayFiles.record(known: knownFiles, captureID: captureID, db)
    }

    /// The records a backup bound to UUIDs before this capture, for a Health database's samples
    /// to meet.
    public func backupSampleMatcher(keyingSources: Bool) throws -> BackupSampleMatcher {
        try BackupSampleMatcher(db, previous: previousCaptureID, keyingSources: keyingSources)
    }

    /// Applies the deletions a Health database remembers to the records they name.
    public func applyTombstones(
        _ tombstones: [HealthTombstone], keyingSources: Bool, matcher: BackupSampleMatcher
    ) throws -> BackupTombstones.Outcome {
        try BackupTombstones(
            captureID: captureID, previous: previousCaptureID, keyingSources: keyingSources, matcher: matcher
        ).apply(tombstones, db)
    }

    /// Marks gone what a Health database's capture did not meet; returns how many.
    public func markAbsentFromHealthDatabase() throws -> Int {
        try BackupTombstones.markAbsent(captureID: captureID, db)
    }

    /// Carries over what a Health database does not describe; returns how many.
    public func carryOverWhatHealthDatabasesDoNotDescribe() throws -> Int {
        try BackupTombstones.carryOver(captureID: captureID, db)
    }

    /// The totals of what this capture holds, read from its records.
    public func aggregatesOfWhatItHolds() throws -> CaptureAggregates {
        try CaptureAggregates.of(db, where: "lastSeenCapture = ?1", capture: captureID)
    }

    /// Whether the last export before this capture came with files beside its XML.
    public func exportBeforeHeldFiles() throws -> Bool {
        guard let export = try LatestCapture.id(db, origins: [.export], before: captureID) else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM referencedFile WHERE digest IS NOT NULL AND captureId = ?)",
            arguments: [export]) ?? false
    }
}

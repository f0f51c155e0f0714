import Foundation
internal import GRDB

extension ArchiveStore {
    /// Writes one export's or Health database's capture, in one transaction: its row, running,
    /// compared with the latest export or backup, with the two audit entries that land with it or
    /// not at all (a refused input leaves only its own); handed to `body` to fill and complete,
    /// and gone without a trace if `body` throws, which throws the archive's own errors in words.
    /// `input` names the kind of input for the trail ("an export", "a Health database"). The page
    /// cache is the import's, larger than a reader's.
    func writeSnapshotCapture<T>(
        origin: CaptureOrigin, inputName: String, input: String, startedAt: Date, insertsOnly: Bool = false,
        pageCacheKiB: Int = ArchiveStore.importPageCacheKiB, _ body: (CaptureWrite) throws -> T
    ) throws -> T {
        do {
            return try withBulkLoadJournal {
                try write { db in
                    // A larger page cache keeps hot index pages from being written to the WAL again and again.
                    try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)")
                    let previous = try Self.latestSnapshotCaptureID(db)
                    try AuditLog.append(db, event: .archiveOpened, message: "archive opened to check \(input)")
                    let captureID = try CaptureStart(
                        origin: origin, scope: .full, inputName: inputName, startedAt: startedAt, previous: previous,
                        auditDetail: (origin == .backup ? " from \(input)" : "")
                            + (previous.map { ", compared with capture \($0)" } ?? ", the first")
                    ).insert(db)
                    let writing = try CaptureWrite(
                        db: db, captureID: captureID, previousCaptureID: previous, insertsOnly: insertsOnly)
                    return try body(writing)
                }
            }
        } catch {
            throw translated(error)
        }
    }
}

extension CaptureWrite {
    /// Lets records a backup described first be met by an export's content (an export after a
    /// backup): nil matcher when the previous capture held none.
    func matchRecordsBackupsDescribed() throws {
        backupRecords = try BackupRecordMatcher.make(for: self, previous: previousCaptureID)
    }

    /// Every file the export holds was read alongside: the files still unread, it does not hold.
    func resolveUnreadFiles() throws {
        guard filesRead > 0 else { return }
        try ReferencedFiles.resolve(captureID: captureID, db)
        try StrayFiles.record(captureID: captureID, db)
        try ReferencedFiles.forgetFilesRead(in: self)
    }

    /// Whether the last export before this capture came with files beside its XML.
    func exportBeforeHeldFiles() throws -> Bool {
        guard let export = try LatestCapture.id(db, origins: [.export], before: captureID) else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM referencedFile WHERE digest IS NOT NULL AND captureId = ?)",
            arguments: [export]) ?? false
    }
}

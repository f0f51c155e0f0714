internal import GRDB

extension ArchiveStore {
    /// v6: a live check written over several background windows. A check cut off keeps its
    /// running capture (`liveCheck`) and, per sample type, how far it read (`liveProgress`): the
    /// position in the type's change history (`changeAnchor`; `changesDone` once it reached the
    /// end) and, for a verification scan, its position, what it met (`scanSeen`), how many of the
    /// records held before it it matched (`scanMatched` of `scanHeld`), whether it marks each
    /// record seen (`scanMarking`) and whether it finished. Each page read is stored in the same
    /// transaction as the position that follows it, so a check killed at any moment resumes
    /// exactly after its last page.
    static func registerResumableChecks(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6 resumable checks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE liveCheck (
                        captureId INTEGER PRIMARY KEY REFERENCES capture(id) ON DELETE CASCADE,
                        recordIdFloor INTEGER NOT NULL,
                        windows INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE TABLE liveProgress (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        sampleType TEXT NOT NULL,
                        changeAnchor BLOB,
                        changesDone INTEGER NOT NULL DEFAULT 0,
                        scanAnchor BLOB,
                        scanSeen INTEGER NOT NULL DEFAULT 0,
                        scanDone INTEGER NOT NULL DEFAULT 0,
                        scanHeld INTEGER,
                        scanMatched INTEGER NOT NULL DEFAULT 0,
                        scanMarking INTEGER NOT NULL DEFAULT 0,
                        added INTEGER NOT NULL DEFAULT 0,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        stored INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (captureId, sampleType)
                    ) WITHOUT ROWID;
                    """)
        }
    }

    /// v8: a verification scan first adds up the UUIDs it meets (`scanDigest`, a ``UUIDDigest``'s
    /// sum as hex; its count is `scanSeen`) and compares them with the archive's, instead of
    /// looking each one up.
    static func registerVerificationDigests(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8 verification digests") { db in
            try db.execute(sql: "ALTER TABLE liveProgress ADD COLUMN scanDigest TEXT NOT NULL DEFAULT '0'")
        }
    }

    /// v10: what a marking verification scan met, kept out of the records. Each page it reads
    /// adds, in the same transaction as its position, the hashes of the UUIDs it met that the
    /// archive holds (``UUIDDigest/hash(_:)``, 8 bytes each, native order); when the check
    /// completes, one pass over the records finds those held and not met, and the rows go.
    static func registerVerificationMarks(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10 verification marks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE liveScanMet (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        sampleType TEXT NOT NULL,
                        hashes BLOB NOT NULL
                    );
                    CREATE INDEX liveScanMet_capture ON liveScanMet(captureId, sampleType);
                    """)
        }
    }
}

import Foundation
internal import GRDB

/// The archive's side of an export's files: contents stored once by digest, and which file each
/// record of a capture came with or referred to (`fileContent`, `referencedFile`).
enum ReferencedFiles {
    /// What reading a file gave: its content's digest and items, or the problem.
    struct Known {
        var digest: String?
        var items: Int?
        var problem: String?
    }

    /// Stores a file read while the capture is written, and remembers it for the records that
    /// refer to it; those stored before it came are given it when the capture completes
    /// (``resolve(captureID:_:)``). Remembered in a temporary table of the writer's connection,
    /// gone with the capture's transaction if it fails, not in memory: ten years of workouts are
    /// seventy thousand routes.
    static func remember(_ file: AttachedFile, problem: String?, in writing: CaptureWrite) throws {
        if let content = file.content { try store(content, kind: file.kind, writing.db) }
        if writing.filesRead == 0 {
            try writing.db.execute(
                sql: """
                    CREATE TEMP TABLE IF NOT EXISTS fileRead (
                        kind TEXT NOT NULL, path TEXT NOT NULL, digest TEXT, items INTEGER, problem TEXT,
                        PRIMARY KEY (kind, path)
                    ) WITHOUT ROWID;
                    DELETE FROM temp.fileRead
                    """)
        }
        try writing.db.cachedStatement(
            sql: "INSERT OR REPLACE INTO temp.fileRead (kind, path, digest, items, problem) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [
            file.kind.rawValue, file.path, file.content?.digest, file.content?.items, problem,
        ])
        writing.filesRead += 1
    }

    /// What reading the file of `kind` at `path` gave, if it was read yet during this capture.
    static func read(kind: AttachedFile.Kind, path: String, in writing: CaptureWrite) throws -> Known? {
        guard writing.filesRead > 0 else { return nil }
        let row = try Row.fetchOne(
            writing.db.cachedStatement(
                sql: "SELECT digest, items, problem FROM temp.fileRead WHERE kind = ? AND path = ?"),
            arguments: [kind.rawValue, path])
        return row.map { Known(digest: $0[0], items: $0[1], problem: $0[2]) }
    }

    /// Gives the files read during the capture to the rows stored before they came.
    static func resolve(captureID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE referencedFile SET digest = f.digest, items = f.items, problem = f.problem
                FROM temp.fileRead AS f
                WHERE referencedFile.captureId = ? AND referencedFile.kind = f.kind AND referencedFile.path = f.path
                    AND referencedFile.digest IS NULL AND referencedFile.problem IS NULL
                """, arguments: [captureID])
    }

    /// Forgets the files read during the capture, once it has what they gave.
    static func forgetFilesRead(in writing: CaptureWrite) throws {
        guard writing.filesRead > 0 else { return }
        try writing.db.execute(sql: "DROP TABLE temp.fileRead")
        writing.filesRead = 0
    }

    /// Stores `content` unless the archive holds it already, and the bytes it was read from. Content
    /// left uncompressed (its digest was held when it was read) is compressed here if the archive
    /// does not hold it after all; content known by its bytes alone always is held (the reader
    /// was told so while this transaction held the archive).
    static func store(_ content: FileContent, kind: AttachedFile.Kind, _ db: Database) throws {
        let stored = try content.isLeftUncompressed && holds(content.digest, db)
        if !stored {
            guard content.hasBytes else {
                throw ArchiveError.storage(
                    problem:
                        "a file's content known from an earlier capture is not in the archive; check the export again")
            }
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO fileContent (digest, kind, content) VALUES (?, ?, ?)")
                .execute(arguments: [content.digest, kind.rawValue, Data(content.compressed)])
        }
        if let source = content.source, content.hasBytes {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO fileSource (source, digest, items) VALUES (?, ?, ?)")
                .execute(arguments: [source, content.digest, content.items])
        }
    }

    private static func holds(_ digest: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM fileContent WHERE digest = ?)"), arguments: [digest])
            == true
    }

    /// The paths of `kind` that records of capture `captureID` refer to and that have not been
    /// read yet.
    static func unread(kind: AttachedFile.Kind, captureID: Int64, _ db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT path FROM referencedFile
                    WHERE captureId = ? AND kind = ? AND digest IS NULL AND problem IS NULL
                    """, arguments: [captureID, kind.rawValue]))
    }

    /// The content stored under `digest`, uncompressed; nil when there is none.
    static func content(digest: String, _ db: Database) throws -> [UInt8]? {
        guard
            let data = try Data.fetchOne(
                db, sql: "SELECT content FROM fileContent WHERE digest = ?", arguments: [digest])
        else { return nil }
        return FileContent(digest: digest, compressed: Array(data), items: 0).inflated()
    }
}

internal import GRDB

extension ArchiveStore {
    /// v14: the files of an export beside its main XML — ECG recordings, clinical documents,
    /// workout routes. `fileContent` holds each distinct content once, compressed, by the digest
    /// of what identifies it (an ECG's voltages, a document's canonical JSON, a route's track
    /// points), so an unchanged file costs nothing more; `referencedFile` says, capture by
    /// capture, which file each record came with or referred to, under which name, with which
    /// content and how many items it holds (a route's points, an ECG's voltages, a document's
    /// bytes) — or that the export did not hold it (no digest) or could not read it (`problem`).
    /// Routes of earlier captures stay in `routeFile`.
    static func registerReferencedFiles(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14 referenced files") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fileContent (
                        digest TEXT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        content BLOB NOT NULL
                    );
                    CREATE TABLE referencedFile (
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        recordId INTEGER NOT NULL REFERENCES record(id),
                        kind TEXT NOT NULL,
                        path TEXT NOT NULL,
                        digest TEXT REFERENCES fileContent(digest),
                        items INTEGER,
                        problem TEXT,
                        PRIMARY KEY (captureId, recordId, kind, path)
                    ) WITHOUT ROWID;
                    CREATE INDEX referencedFile_path ON referencedFile(captureId, kind, path);
                    """)
        }
    }

    /// v21: which content each route's bytes gave (``RouteSourceDigest``: the bytes less what every
    /// export writes anew, its time and the track's name), so that a re-check recognises an
    /// unchanged route by its bytes and does not read its track again. Goes with the content.
    static func registerFileSources(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v21 file sources") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fileSource (
                        source TEXT PRIMARY KEY,
                        digest TEXT NOT NULL REFERENCES fileContent(digest) ON DELETE CASCADE,
                        items INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX fileSource_digest ON fileSource(digest);
                    """)
        }
    }
}

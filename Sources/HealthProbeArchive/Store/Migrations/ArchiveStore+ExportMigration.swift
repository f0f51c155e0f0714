internal import GRDB

extension ArchiveStore {
    /// v5: what the exporter needs to reproduce any capture exactly and to remember its runs.
    ///
    /// - `recordAbsence`: a record that went and came back keeps no gone mark, so without this
    ///   a capture between its departure and its return would seem to hold it. One row per
    ///   absence that ended, written when the record returns. Absences that ended before this
    ///   migration are not known.
    /// - `exportRun`: every export, manual or scheduled, failed ones included.
    static func registerExports(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5 exports") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordAbsence (
                        recordId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                        lastSeenCapture INTEGER,
                        goneCapture INTEGER NOT NULL,
                        goneReason TEXT,
                        returnCapture INTEGER NOT NULL
                    );
                    CREATE INDEX recordAbsence_record ON recordAbsence(recordId);
                    CREATE INDEX recordAbsence_span ON recordAbsence(goneCapture, returnCapture);
                    CREATE TABLE exportRun (
                        id INTEGER PRIMARY KEY,
                        startedAt REAL NOT NULL,
                        finishedAt REAL,
                        trigger TEXT NOT NULL,
                        format TEXT NOT NULL,
                        encrypted INTEGER NOT NULL,
                        selection TEXT NOT NULL,
                        captureId INTEGER,
                        records INTEGER,
                        bytes INTEGER,
                        sha256 TEXT,
                        path TEXT NOT NULL,
                        outcome TEXT NOT NULL,
                        problem TEXT
                    );
                    """)
        }
    }

    /// v11: an export is noted as it starts (outcome `running`, with the id of the process writing
    /// it), so that one killed before it finished still shows in the history, as `interrupted`.
    static func registerExportStarts(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11 export starts") { db in
            try db.execute(sql: "ALTER TABLE exportRun ADD COLUMN pid INTEGER")
        }
    }

    /// v12: metadata as the export wrote it, beside the UTC form fingerprints read — only for
    /// records with a date among their metadata. Records stored before keep null (their offsets
    /// were not kept) and are exported in UTC.
    static func registerMetadataAsWritten(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12 metadata as written") { db in
            try db.execute(sql: "ALTER TABLE record ADD COLUMN metadataAsWritten TEXT")
        }
    }
}

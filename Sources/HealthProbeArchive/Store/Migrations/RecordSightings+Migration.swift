internal import GRDB

/// RecordSightings' part of the archive's schema (docs/schema.sql holds the whole).
extension RecordSightings {
    /// v23: a record's sightings in a narrow table of their own. Every check marks every record
    /// it meets again; in the record's own row that rewrote the whole record table (about 250
    /// bytes a record, 1.9 GB at ten years) through the WAL on every re-check. A sighting row is
    /// some 12 bytes. The content of a record is written once; what changes each check is here.
    ///
    /// `lastVerifiedAt` goes: it was always the time of the record's last capture (an export's
    /// or a backup's start, a live check's moment), which the capture keeps, and nothing read it.
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v23 record sightings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordSighting (
                        recordId INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
                        lastSeenCapture INTEGER NOT NULL,
                        previousSeenCapture INTEGER
                    );
                    INSERT INTO recordSighting (recordId, lastSeenCapture, previousSeenCapture)
                    SELECT id, lastSeenCapture, previousSeenCapture FROM record ORDER BY id;
                    ALTER TABLE record DROP COLUMN lastSeenCapture;
                    ALTER TABLE record DROP COLUMN previousSeenCapture;
                    ALTER TABLE record DROP COLUMN lastVerifiedAt;
                    """)
        }
    }
}

import GRDB

extension ArchiveStore {
    /// v2: what the audit finds (anomalies and the records they are about), the daily value sums
    /// the divergence test reads, an index of gone records, and the semantic key made
    /// source-free so that one index finds both exact duplicates and source overlaps.
    static func registerAnomalies(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2 anomalies") { db in
            try db.execute(
                sql: """
                    ALTER TABLE typeDayBin ADD COLUMN valueSum REAL;
                    ALTER TABLE typeDayBin ADD COLUMN valueCount INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX record_gone ON record(goneCapture) WHERE goneCapture IS NOT NULL;
                    CREATE TABLE anomaly (
                        id INTEGER PRIMARY KEY,
                        captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                        detectedAt REAL NOT NULL,
                        type TEXT NOT NULL,
                        severity TEXT NOT NULL,
                        sampleType TEXT NOT NULL,
                        summary TEXT NOT NULL,
                        recordCount INTEGER NOT NULL,
                        evidence TEXT NOT NULL,
                        resolvedAt REAL,
                        UNIQUE (captureId, type, sampleType)
                    );
                    CREATE TABLE anomalyRecord (
                        anomalyId INTEGER NOT NULL REFERENCES anomaly(id) ON DELETE CASCADE,
                        recordId INTEGER NOT NULL REFERENCES record(id),
                        role TEXT NOT NULL,
                        PRIMARY KEY (anomalyId, recordId)
                    ) WITHOUT ROWID;
                    CREATE INDEX anomalyRecord_record ON anomalyRecord(recordId);
                    """)
            try rekeySemanticIndex(db)
        }
    }

    /// Recomputes every semantic key from the stored columns (v1 keys included the source).
    /// Correlation members are re-keyed first, through the top-level copy their old key finds.
    private static func rekeySemanticIndex(_ db: Database) throws {
        func sample(_ row: Row) -> HealthRecord {
            HealthRecord(
                kind: HealthRecord.Kind(rawValue: row["kind"]) ?? .other, type: row["type"], unit: row["unit"],
                value: row["value"], startDate: row["startDate"], endDate: row["endDate"],
                detailsJSON: row["detailsJSON"])
        }
        let columns = "kind, type, unit, value, startDate, endDate, details AS detailsJSON"
        let members = try Row.fetchAll(db, sql: "SELECT rowid, memberKey, memberFingerprint FROM correlationMember")
        for member in members {
            guard
                let copy = try Row.fetchOne(
                    db, sql: "SELECT \(columns) FROM record WHERE semanticKey = ? AND semanticFingerprint = ? LIMIT 1",
                    arguments: [member["memberKey"], member["memberFingerprint"]])
            else { continue }
            try db.execute(
                sql: "UPDATE correlationMember SET memberKey = ? WHERE rowid = ?",
                arguments: [RecordFingerprints.sameSampleKey(sample(copy)), member["rowid"]])
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT id, \(columns) FROM record")
        let update = try db.makeStatement(sql: "UPDATE record SET semanticKey = ? WHERE id = ?")
        var keys: [(Int64, Int64)] = []
        while let row = try rows.next() { keys.append((row["id"], RecordFingerprints.sameSampleKey(sample(row)))) }
        for (id, key) in keys { try update.execute(arguments: [key, id]) }
    }
}

import Foundation
internal import GRDB

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

    /// Recomputes every record's parsed number, semantic fingerprint and semantic key from the
    /// stored columns: v1 keys included the source, and v1 left the number of export records
    /// unset, so their semantic fingerprints hashed the value's text. Correlation members are
    /// updated first, through the top-level copy their old key and fingerprint find.
    private static func rekeySemanticIndex(_ db: Database) throws {
        func sample(_ row: Row) -> HealthRecord {
            HealthRecord(
                kind: HealthRecord.Kind(rawValue: row["kind"]) ?? .other, type: row["type"],
                sourceName: row["sourceName"], unit: row["unit"], value: row["value"], startDate: row["startDate"],
                endDate: row["endDate"], detailsJSON: row["detailsJSON"])
        }
        let columns = "kind, type, sourceName, unit, value, startDate, endDate, details AS detailsJSON"
        let members = try Row.fetchAll(db, sql: "SELECT rowid, memberKey, memberFingerprint FROM correlationMember")
        for member in members {
            guard
                let copy = try Row.fetchOne(
                    db, sql: "SELECT \(columns) FROM record WHERE semanticKey = ? AND semanticFingerprint = ? LIMIT 1",
                    arguments: [member["memberKey"], member["memberFingerprint"]])
            else { continue }
            let record = sample(copy)
            try db.execute(
                sql: "UPDATE correlationMember SET memberKey = ?, memberFingerprint = ? WHERE rowid = ?",
                arguments: [
                    RecordFingerprints.sameSampleKey(record), Data(RecordFingerprints.semantic(record).bytes),
                    member["rowid"],
                ])
        }
        let update = try db.makeStatement(
            sql: "UPDATE record SET numericValue = ?, semanticFingerprint = ?, semanticKey = ? WHERE id = ?")
        // A page of records at a time: this once held every record of the archive in memory.
        try forEachRecordPage(db, columns: columns) { row in
            let record = sample(row)
            try update.execute(arguments: [
                record.numericValue, Data(RecordFingerprints.semantic(record).bytes),
                RecordFingerprints.sameSampleKey(record), row["id"] as Int64,
            ])
        }
    }
}

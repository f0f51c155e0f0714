import Foundation
internal import GRDB

extension ArchiveStore {
    /// v4: semantic and fuzzy fingerprints are MurmurHash3 instead of SHA-256 (they were a fifth
    /// of an import's fingerprinting time and need no cryptographic strength). Recomputes them for
    /// every record, and the member fingerprints of correlations, from the stored columns.
    static func registerContentHashes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4 content hashes") { db in
            try rehashCorrelationMembers(db)
            try rehashRecords(db)
        }
    }

    /// The columns the semantic and fuzzy fingerprints are made of, as a record.
    private static let sampleColumns = "kind, type, sourceName, unit, value, startDate, endDate, details"

    private static func sample(_ row: Row) -> HealthRecord {
        HealthRecord(
            kind: HealthRecord.Kind(rawValue: row["kind"]) ?? .other, type: row["type"], sourceName: row["sourceName"],
            unit: row["unit"], value: row["value"], startDate: row["startDate"], endDate: row["endDate"],
            detailsJSON: row["details"])
    }

    /// Members first, while the records still carry the old fingerprints that find them. A
    /// member whose top-level copy is missing keeps its old fingerprint (it matched nothing).
    private static func rehashCorrelationMembers(_ db: Database) throws {
        let members = try Row.fetchAll(db, sql: "SELECT rowid, memberKey, memberFingerprint FROM correlationMember")
        let copy = try db.makeStatement(
            sql: "SELECT \(sampleColumns) FROM record WHERE semanticKey = ? AND semanticFingerprint = ? LIMIT 1")
        let update = try db.makeStatement(sql: "UPDATE correlationMember SET memberFingerprint = ? WHERE rowid = ?")
        for member in members {
            guard let row = try Row.fetchOne(copy, arguments: [member["memberKey"], member["memberFingerprint"]])
            else { continue }
            try update.execute(arguments: [Data(RecordFingerprints(sample(row)).semantic.bytes), member["rowid"]])
        }
    }

    private static func rehashRecords(_ db: Database) throws {
        let update = try db.makeStatement(
            sql: "UPDATE record SET semanticFingerprint = ?, fuzzyFingerprint = ? WHERE id = ?")
        try forEachRecordPage(db, columns: sampleColumns) { row in
            let fingerprints = RecordFingerprints(sample(row))
            try update.execute(arguments: [
                Data(fingerprints.semantic.bytes), Data(fingerprints.fuzzy.bytes), row["id"] as Int64,
            ])
        }
    }

    /// Every record's `id` and `columns`, a few thousand at a time, so that a migration's memory
    /// stays flat whatever the archive's size (and no row is updated under a running SELECT).
    static func forEachRecordPage(_ db: Database, columns: String, _ body: (Row) throws -> Void) throws {
        let page = try db.makeStatement(sql: "SELECT id, \(columns) FROM record WHERE id > ? ORDER BY id LIMIT 4096")
        var after: Int64 = 0
        while true {
            let rows = try Row.fetchAll(page, arguments: [after])
            guard let last = rows.last else { return }
            for row in rows { try body(row) }
            after = last["id"]
        }
    }
}

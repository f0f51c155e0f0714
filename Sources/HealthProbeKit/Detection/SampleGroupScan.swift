import Foundation
import GRDB

/// Reads the records that share a semantic index key with something C brought — the same sample,
/// whoever wrote it — one key at a time, for the duplicate and source-overlap detectors.
///
/// Which keys: when C brought few records, the keys of its arrivals; on a first capture or a
/// large arrival, every key the index holds more than once (one pass over the index, never over
/// the table). Correlation children that also stand at top level are left out.
struct SampleGroupScan {
    struct Row: Sendable {
        var id: Int64
        var kind: String
        var type: String
        var sourceName: String?
        var unit: String?
        /// The number when there is one, else the text; value-less elements add their details.
        var sampleValue: String
        var startDate: Double?
        var endDate: Double?
        var semanticFingerprint: Data
        var heldByCurrent: Bool
        var heldByPrevious: Bool

        var isArrival: Bool { heldByCurrent && !heldByPrevious }

        /// What makes two records the same sample whatever their source.
        var sampleIdentity: String {
            [
                kind, type, unit ?? "\u{0}", startDate.map { String($0) } ?? "-", endDate.map { String($0) } ?? "-",
                sampleValue,
            ].joined(separator: "\u{1}")
        }
    }

    let pair: CapturePair
    /// Arrivals above this many make one pass over the index cheaper than a lookup per arrival.
    static let indexScanThreshold = 50_000

    /// Calls `body` with the rows of each key that holds at least two records.
    func forEachGroup(_ db: Database, _ body: ([Row]) throws -> Void) throws {
        let arrivals =
            pair.previous == nil ? Int.max : try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.arrival") ?? 0
        let keys =
            arrivals > Self.indexScanThreshold
            ? try Int64.fetchCursor(
                db, sql: "SELECT semanticKey FROM record GROUP BY semanticKey HAVING COUNT(*) > 1")
            : try Int64.fetchCursor(db, sql: "SELECT DISTINCT semanticKey FROM temp.arrival ORDER BY semanticKey")
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, kind, type, sourceName, unit,
                    CASE WHEN numericValue IS NOT NULL THEN CAST(numericValue AS TEXT)
                        WHEN value IS NOT NULL THEN value ELSE details END AS sampleValue,
                    startDate, endDate, semanticFingerprint,
                    \(pair.heldByCurrent) AS heldByCurrent, \(pair.heldByPrevious) AS heldByPrevious
                FROM record
                WHERE semanticKey = :key AND correlationId IS NULL
                    AND (\(pair.heldByCurrent) OR \(pair.heldByPrevious))
                """)
        let previous = pair.previous?.id ?? -1
        while let key = try keys.next() {
            let arguments: StatementArguments = ["current": pair.current.id, "previous": previous, "key": key]
            let rows = try GRDB.Row.fetchAll(statement, arguments: arguments).map { row in
                Row(
                    id: row["id"], kind: row["kind"], type: row["type"], sourceName: row["sourceName"],
                    unit: row["unit"], sampleValue: row["sampleValue"] ?? "", startDate: row["startDate"],
                    endDate: row["endDate"], semanticFingerprint: row["semanticFingerprint"],
                    heldByCurrent: row["heldByCurrent"], heldByPrevious: row["heldByPrevious"])
            }
            if rows.count > 1 && rows.contains(where: \.isArrival) { try body(rows) }
        }
    }
}

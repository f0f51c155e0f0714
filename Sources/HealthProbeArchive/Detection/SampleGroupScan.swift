import Foundation
internal import GRDB

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
        var semanticFingerprint: Fingerprint
        var heldByCurrent: Bool
        var heldByPrevious: Bool

        var isArrival: Bool { heldByCurrent && !heldByPrevious }

        /// What makes two records the same sample whatever their source.
        var sampleIdentity: SampleIdentity {
            SampleIdentity(
                kind: kind, type: type, unit: unit, startDate: startDate, endDate: endDate, sampleValue: sampleValue)
        }
    }

    struct SampleIdentity: Hashable {
        var kind: String
        var type: String
        var unit: String?
        var startDate: Double?
        var endDate: Double?
        var sampleValue: String
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
                FROM record \(RecordSightings.join)
                WHERE semanticKey = :key AND correlationId IS NULL
                    AND (\(pair.heldByCurrent) OR \(pair.heldByPrevious))
                """)
        let previous = pair.previous?.id ?? -1
        var texts = TextColumns()
        var rows: [Row] = []
        while let key = try keys.next() {
            let cursor = try SQLiteRowCursor(
                db, statement: statement, arguments: ["current": pair.current.id, "previous": previous, "key": key])
            rows.removeAll(keepingCapacity: true)
            while try cursor.step() {
                rows.append(
                    Row(
                        id: cursor.integer(0) ?? 0, kind: texts.text(cursor, 1) ?? "",
                        type: texts.text(cursor, 2) ?? "",
                        sourceName: texts.text(cursor, 3), unit: texts.text(cursor, 4),
                        sampleValue: texts.text(cursor, 5) ?? "", startDate: cursor.double(6),
                        endDate: cursor.double(7),
                        semanticFingerprint: cursor.fingerprint(8), heldByCurrent: cursor.integer(9) == 1,
                        heldByPrevious: cursor.integer(10) == 1))
            }
            if rows.count > 1 && rows.contains(where: \.isArrival) { try body(rows) }
        }
    }

    /// The rows of one key repeat the same few texts (a writer replaying one sample thousands of
    /// times): each column's last text is reused while its bytes are the same, so a group of a
    /// hundred thousand copies holds a few strings, not a million.
    private struct TextColumns {
        private var last: [Int32: (bytes: [UInt8], text: String)] = [:]

        mutating func text(_ cursor: SQLiteRowCursor, _ column: Int32) -> String? {
            guard let bytes = cursor.bytes(column) else { return nil }
            if let known = last[column], known.bytes.elementsEqual(bytes) { return known.text }
            let text = String(decoding: bytes, as: UTF8.self)
            last[column] = (Array(bytes), text)
            return text
        }
    }
}

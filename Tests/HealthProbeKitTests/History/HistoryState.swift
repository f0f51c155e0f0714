import Foundation
import GRDB

/// What the history says, read from the archive's file by a plain SQLite reader: every fact a
/// comparison, a figure or an anomaly rests on, with capture ids written as their place among the
/// included captures (`#1`, `#2`, …; `aside` for one set aside), so that an archive that went the
/// long way round and a fresh one fed only its included captures can be compared line by line.
///
/// Left out on purpose: what only says when (times, the trail), and what a capture set aside
/// keeps to be taken back (its own rows, its withdrawn anomalies).
struct HistoryState: Equatable {
    var lines: [String]
    /// The resolved anomalies, as `capture type sampleType`, by capture id (not place).
    var resolved: Set<String>
    /// Every anomaly not withdrawn, in the same form.
    var visible: Set<String>
    /// The included captures' ids, oldest first.
    var included: [Int64]

    static func read(_ path: String) throws -> HistoryState {
        try reading(path) { db in try read(db) }
    }

    /// The history, or nil when there is no archive, or no archive yet in the file.
    static func readIfPresent(_ path: String) throws -> HistoryState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try reading(path) { db in
            try db.tableExists("capture") && db.tableExists("recordAbsence") ? try read(db) : nil
        }
    }

    /// Every row of every table but the trail, as SQLite writes them: equal before and after a
    /// step exactly when the step changed nothing.
    static func footprint(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try reading(path) { db in
            var text = ""
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                        AND name <> 'auditEntry' ORDER BY name
                    """)
            for table in tables {
                let names = try db.columns(in: table).map(\.name.quotedDatabaseIdentifier)
                let row = names.map { "quote(\($0))" }.joined(separator: " || ',' || ")
                let ordering = names.joined(separator: ", ")
                text += "#\(table)\n"
                text +=
                    try String.fetchOne(
                        db,
                        sql: """
                            SELECT group_concat(line, char(10)) FROM (
                                SELECT \(row) AS line FROM \(table.quotedDatabaseIdentifier) ORDER BY \(ordering))
                            """) ?? ""
            }
            return text
        }
    }

    private static func reading<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// The included captures by place, those set aside as `aside`: `place(id, name)`.
    private static let places = """
        WITH place(id, name) AS (
            SELECT id, '#' || ROW_NUMBER() OVER (ORDER BY id) FROM capture WHERE status = 'complete'
            UNION ALL SELECT id, 'aside' FROM capture WHERE status = 'aside'),
        recordKey(id, key) AS (SELECT id, hex(strictFingerprint) || '/' || occurrence FROM record)
        """

    /// A capture column by place: `-` for none.
    private static func named(_ column: String) -> String {
        "IFNULL((SELECT name FROM place WHERE place.id = \(column)), IFNULL('unknown ' || \(column), '-'))"
    }

    private static func read(_ db: Database) throws -> HistoryState {
        let included = try Int64.fetchAll(db, sql: "SELECT id FROM capture WHERE status = 'complete' ORDER BY id")
        let key = "(SELECT key FROM recordKey WHERE recordKey.id = %@)"
        let anomalyName = "\(named("a.captureId")) || ' ' || a.type || ' ' || a.sampleType"
        let evidence = """
            CASE WHEN json_extract(a.evidence, '$.previousCaptureId') IS NULL THEN a.evidence
            ELSE json_set(a.evidence, '$.previousCaptureId', \(named("CAST(json_extract(a.evidence, '$.previousCaptureId') AS INTEGER)")))
            END
            """
        let lines = try String.fetchAll(
            db,
            sql: """
                \(places)
                SELECT 'capture ' || \(named("id")) || ': ' || origin || ' ' || scope || ' compared with '
                    || \(named("previousCaptureId")) || ', ' || records || ' records, ' || new || ' new, ' || gone
                    || ' gone, ' || unchanged || ' unchanged, ' || unreadable || ' unreadable'
                FROM capture WHERE status = 'complete'
                UNION ALL
                SELECT 'record ' || \(String(format: key, "r.id")) || ' ' || type || ': first ' || \(named("firstSeenCapture"))
                    || ', last ' || \(named("lastSeenCapture")) || ', before ' || \(named("previousSeenCapture"))
                    || ', gone ' || \(named("goneCapture")) || ' ' || IFNULL(goneReason, '-')
                    || ', in a correlation: ' || (correlationId IS NOT NULL)
                FROM record AS r JOIN recordSighting AS s ON s.recordId = r.id WHERE goneReason IS NOT 'aside'
                UNION ALL
                SELECT 'absence ' || \(String(format: key, "recordId")) || ': last ' || \(named("lastSeenCapture"))
                    || ', gone ' || \(named("goneCapture")) || ' ' || IFNULL(goneReason, '-') || ', back '
                    || \(named("returnCapture"))
                FROM recordAbsence
                UNION ALL
                SELECT 'anomaly ' || \(anomalyName) || ': ' || severity || ' ' || recordCount || ' "' || summary || '" '
                    || \(evidence) || '; back ' || recoveredCount || ' in ' || \(named("recoveredCapture"))
                    || ', whole: ' || (recoveredAt IS NOT NULL)
                FROM anomaly AS a WHERE withdrawnAt IS NULL
                UNION ALL
                SELECT 'anomaly ' || \(anomalyName) || ' names ' || \(String(format: key, "link.recordId")) || ' as ' || link.role
                FROM anomalyRecord AS link JOIN anomaly AS a ON a.id = link.anomalyId WHERE a.withdrawnAt IS NULL
                UNION ALL
                SELECT 'snapshot ' || \(named("captureId")) || ' ' || type || ': ' || count || ' ' || checksum || ' '
                    || sourceCounts
                FROM typeSnapshot WHERE captureId IN (SELECT id FROM capture WHERE status = 'complete')
                UNION ALL
                SELECT 'day ' || \(named("captureId")) || ' ' || type || ' ' || day || ': ' || count || ' ' || contentHash
                    || ' ' || IFNULL(valueSum, 0) || ' ' || valueCount
                FROM typeDayBin WHERE captureId IN (SELECT id FROM capture WHERE status = 'complete')
                UNION ALL
                SELECT 'arrival ' || type || ' ' || sourceName || ' ' || firstWritten || ' ' || enteredByHand
                FROM sourceArrival
                ORDER BY 1
                """)
        var resolved: Set<String> = []
        var visible: Set<String> = []
        for row in try Row.fetchAll(
            db, sql: "SELECT captureId, type, sampleType, resolvedAt FROM anomaly WHERE withdrawnAt IS NULL")
        {
            let byID = "\(row["captureId"] as Int64) \(row["type"] as String) \(row["sampleType"] as String)"
            visible.insert(byID)
            if row["resolvedAt"] != nil { resolved.insert(byID) }
        }
        return HistoryState(lines: lines, resolved: resolved, visible: visible, included: included)
    }

    /// A few of the lines only one side holds: what a failure shows.
    func difference(from expected: HistoryState) -> [String] {
        let (found, wanted) = (Set(lines), Set(expected.lines))
        return found.subtracting(wanted).sorted().prefix(6).map { "archive: " + $0.prefix(400) }
            + wanted.subtracting(found).sorted().prefix(6).map { "fresh:   " + $0.prefix(400) }
    }
}

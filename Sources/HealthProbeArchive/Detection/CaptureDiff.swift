import Foundation
internal import GRDB

/// What changed between P and C, as two temporary tables the detectors read and annotate:
/// `departure` (records P held that vanished from C — `reason` says whether without a trace,
/// `absent`, or deleted explicitly through HealthKit, `deleted`) and `arrival` (records C holds that P did
/// not: never seen before, or back after having gone). Each row's `explanation` is set by the
/// first detector that accounts for it, so that every record is explained once.
///
/// Built only when there is a previous capture; both tables hold the difference, never a
/// whole capture.
enum CaptureDiff {
    static let columns = """
        id, kind, type, sourceName, unit, value, numericValue, creationDate, startDate, endDate, semanticKey, semanticFingerprint,
        CASE WHEN metadata LIKE '%HKMetadataKeySyncIdentifier%' THEN metadata END
        """

    static func build(_ db: Database, pair: CapturePair) throws {
        try drop(db)
        let definition = """
            (id INTEGER PRIMARY KEY, kind TEXT, type TEXT, sourceName TEXT, unit TEXT, value TEXT,
             numericValue REAL, creationDate REAL, startDate REAL, endDate REAL, semanticKey INTEGER,
             semanticFingerprint BLOB, syncMetadata TEXT, returned INTEGER NOT NULL DEFAULT 0, reason TEXT,
             explanation TEXT)
            """
        try db.execute(
            sql: """
                CREATE TEMP TABLE departure \(definition);
                CREATE TEMP TABLE arrival \(definition);
                INSERT INTO temp.departure SELECT \(columns), 0, goneReason, NULL FROM record
                    WHERE goneCapture = :current AND goneReason IN (\(GoneReason.absent.sqlLiteral), \(GoneReason.deleted.sqlLiteral));
                INSERT INTO temp.arrival SELECT \(columns), 0, NULL, NULL FROM record
                    WHERE id > :floor AND firstSeenCapture = :current;
                INSERT INTO temp.arrival SELECT \(columns), 1, NULL, NULL FROM record \(RecordSightings.join)
                    WHERE goneCapture IS NOT NULL AND sighting.lastSeenCapture = :current;
                CREATE INDEX temp.arrival_slot ON arrival(type, startDate, endDate);
                CREATE INDEX temp.arrival_semantic ON arrival(semanticKey);
                """, arguments: ["current": pair.current.id, "floor": pair.recordIDFloor])
    }

    /// Departures nothing explained, gone for `reason`, tallied by sample type.
    static func unexplainedDepartures(_ db: Database, reason: GoneReason, dayZone: TimeZone) throws
        -> [String: RecordTally]
    {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, kind, type, sourceName, startDate, endDate FROM temp.departure
                WHERE explanation IS NULL AND reason = ?
                """, arguments: [reason.rawValue])
        var tallies: [String: RecordTally] = [:]
        while let row = try rows.next() {
            tallies[row["type"], default: RecordTally(zone: dayZone, keepsIDs: false)].add(
                id: row["id"], source: row["sourceName"], start: row["startDate"], end: row["endDate"],
                kind: row["kind"])
        }
        return tallies
    }

    /// The ids of those departures (arguments: reason, sample type), for an anomaly's records.
    static let unexplainedDepartureIDs =
        "SELECT id FROM temp.departure WHERE explanation IS NULL AND reason = ? AND type = ?"

    static func drop(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS temp.departure; DROP TABLE IF EXISTS temp.arrival")
    }

    /// Marks rows of `table` ("arrival" or "departure") as explained.
    static func explain(_ db: Database, table: String, ids: [Int64], as explanation: String) throws {
        let statement = try db.cachedStatement(sql: "UPDATE temp.\(table) SET explanation = ? WHERE id = ?")
        for id in ids { try statement.execute(arguments: [explanation, id]) }
    }

    /// Sets the reason a departed record is gone, in the archive itself.
    static func setGoneReason(_ db: Database, ids: [Int64], reason: GoneReason) throws {
        let statement = try db.cachedStatement(sql: "UPDATE record SET goneReason = ? WHERE id = ?")
        for id in ids { try statement.execute(arguments: [reason.rawValue, id]) }
    }
}

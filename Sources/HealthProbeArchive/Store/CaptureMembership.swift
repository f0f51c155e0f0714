internal import GRDB

/// Which records a capture held, in SQL over `record`: seen by then, not gone by then, not away
/// at the time — the one definition behind `export --as-of-capture` and comparing captures.
struct CaptureMembership {
    let capture: Int64
    let origin: CaptureOrigin
    /// Whether any record was away during this capture and came back later (most archives have
    /// none, and then the test of `recordAbsence` is left out).
    let anyAbsenceSpans: Bool

    init(capture: Int64, origin: CaptureOrigin, _ db: Database) throws {
        self.capture = capture
        self.origin = origin
        anyAbsenceSpans =
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM recordAbsence WHERE goneCapture <= ? AND returnCapture > ?)",
                arguments: [capture, capture]) ?? false
    }

    /// The two ways in keep their own records: an export capture holds export records, a live
    /// capture the HealthKit samples.
    var populationSQL: String { Self.population(of: origin) }

    /// The records a way in keeps, as a condition on a row of `record`: needs no capture read.
    static func population(of origin: CaptureOrigin) -> String {
        origin == LiveCapture.origin ? "healthKitUUID IS NOT NULL" : "healthKitUUID IS NULL"
    }

    /// A condition on a row of `record` (named `record`), with the capture's id as a literal.
    var heldSQL: String {
        var sql = """
            \(populationSQL) AND firstSeenCapture <= \(capture) AND (goneCapture IS NULL OR goneCapture > \(capture))
            """
        if anyAbsenceSpans {
            sql += """
                 AND NOT EXISTS (SELECT 1 FROM recordAbsence AS absence WHERE absence.recordId = record.id
                    AND absence.goneCapture <= \(capture) AND absence.returnCapture > \(capture))
                """
        }
        return sql
    }
}

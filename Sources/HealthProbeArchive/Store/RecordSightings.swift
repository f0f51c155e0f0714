/// A record keeps its last two sightings (`lastSeenCapture`, `previousSeenCapture`), in
/// `recordSighting` beside its row; undoing the last one — a capture set aside, a failed capture
/// rolled back — makes the previous one the last, and the sighting before that is found again
/// rather than forgotten, so that a second capture can be undone after the first.
///
/// A record present in a snapshot capture P that it was not first seen in was either in the
/// capture P was compared with (`capture.previousCaptureId`), or came back in P after an absence
/// (`recordAbsence` with `returnCapture` = P, which keeps its sighting before the absence).
enum RecordSightings {
    /// Makes the previous sighting the last, for the records `condition` names: an SQL condition
    /// over `sighting` (their `recordSighting` row) and `record` (their row).
    static func stepBack(where condition: String) -> String {
        """
        UPDATE recordSighting AS sighting SET lastSeenCapture = sighting.previousSeenCapture,
            previousSeenCapture = \(beforePrevious)
        FROM record WHERE record.id = sighting.recordId AND \(condition)
        """
    }

    /// The sighting before `previousSeenCapture`: what `previousSeenCapture` becomes when
    /// `lastSeenCapture` takes its value.
    private static let beforePrevious = """
        (CASE WHEN sighting.previousSeenCapture IS NULL OR record.firstSeenCapture >= sighting.previousSeenCapture
            THEN NULL
            ELSE IFNULL(
                (SELECT absence.lastSeenCapture FROM recordAbsence AS absence
                 WHERE absence.recordId = sighting.recordId AND absence.returnCapture = sighting.previousSeenCapture),
                (SELECT compared.previousCaptureId FROM capture AS compared
                 WHERE compared.id = sighting.previousSeenCapture))
        END)
        """

    /// The last capture that saw a `record` row, as an SQL expression over it.
    static let lastSeen = "(SELECT lastSeenCapture FROM recordSighting WHERE recordId = record.id)"

    /// Joins each `record` row to its sightings, as `sighting`, looked up by the record's id
    /// after the record's own conditions (a `CROSS JOIN`: SQLite keeps the order written).
    static let join = "CROSS JOIN recordSighting AS sighting ON sighting.recordId = record.id"
}
